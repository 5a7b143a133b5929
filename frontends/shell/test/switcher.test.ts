// The workspace switcher's state (src/layout/switcher.ts): grouping, search, keyboard movement, where a switch lands.
import type { Workspace } from '@ledgerline/api';
import { describe, expect, it } from 'vitest';
import { initialActive, listedIds, moveActive, pathAfterSwitch, showsSearch, switcherGroups, SWITCHER_SEARCH_FROM } from '../src/layout/switcher';

const ws = (id: string, name: string, organizationId: string, organizationName: string): Workspace => ({
  id,
  name,
  organizationId,
  organizationName,
  role: 'Owner',
  isDefault: false,
});
const list = [
  ws('w1', 'Payroll', 'o2', 'Zephyr Labs'),
  ws('w2', 'Main books', 'o1', 'Acme Corp'),
  ws('w3', 'US entity', 'o1', 'Acme Corp'),
  ws('w4', 'EU entity', 'o2', 'Zephyr Labs'),
];

describe('switcher groups', () => {
  it('lists organizations by name with their workspaces', () => {
    const groups = switcherGroups(list, '');
    expect(groups.map((g) => [g.name, g.workspaces.map((w) => w.name)])).toEqual([
      ['Acme Corp', ['Main books', 'US entity']],
      ['Zephyr Labs', ['Payroll', 'EU entity']],
    ]);
    expect(listedIds(groups)).toEqual(['w2', 'w3', 'w1', 'w4']);
  });

  it('searches case-insensitively by workspace name, or by organization name (all of its workspaces)', () => {
    expect(listedIds(switcherGroups(list, ' ENTITY '))).toEqual(['w3', 'w4']);
    expect(listedIds(switcherGroups(list, 'zeph'))).toEqual(['w1', 'w4']);
    expect(switcherGroups(list, 'nothing like it')).toEqual([]);
  });

  it('shows a search field only for a long list', () => {
    expect(showsSearch(list)).toBe(false);
    const long = Array.from({ length: SWITCHER_SEARCH_FROM }, (_, i) => ws(`w${i}`, `W${i}`, 'o', 'O'));
    expect(showsSearch(long)).toBe(true);
  });
});

describe('keyboard', () => {
  const ids = ['a', 'b', 'c'];
  it('arrows move and wrap, Home and End jump, nothing active starts at an end', () => {
    expect(moveActive(ids, 'a', 'ArrowDown')).toBe('b');
    expect(moveActive(ids, 'c', 'ArrowDown')).toBe('a');
    expect(moveActive(ids, 'a', 'ArrowUp')).toBe('c');
    expect(moveActive(ids, null, 'ArrowDown')).toBe('a');
    expect(moveActive(ids, 'gone', 'ArrowUp')).toBe('c');
    expect(moveActive(ids, 'b', 'Home')).toBe('a');
    expect(moveActive(ids, 'b', 'End')).toBe('c');
    expect(moveActive([], 'a', 'ArrowDown')).toBeNull();
  });

  it('opens on the current workspace when listed, else the first', () => {
    expect(initialActive(ids, 'b')).toBe('b');
    expect(initialActive(ids, 'z')).toBe('a');
    expect(initialActive([], 'z')).toBeNull();
  });
});

describe('after a switch', () => {
  it('stays in the same area with its tab, dropping ids of the previous workspace', () => {
    expect(pathAfterSwitch('/transactions/0190a000-0000-7000-8000-0000000000a1', '?tab=review&txn=1')).toBe('/transactions?tab=review');
    expect(pathAfterSwitch('/accounting', '?tab=bills&mode=view&bill=1')).toBe('/accounting?tab=bills');
    expect(pathAfterSwitch('/reports', '')).toBe('/reports');
    expect(pathAfterSwitch('/select-organization', '')).toBe('/dashboard');
    expect(pathAfterSwitch('/', '')).toBe('/dashboard');
  });
});
