// The firm's pure rules in the api package (src/firm.ts): invite links, the organizations search, the managers, the
// organization name.
import { describe, expect, it } from 'vitest';
import {
  checkOrganizationName,
  filterFirmOrganizations,
  inviteFromSearch,
  isFirmManager,
  ORGANIZATION_NAME_REQUIRED,
  type FirmOrganization,
} from '../src/firm';

const org = (id: string, name: string, extra: Partial<FirmOrganization> = {}): FirmOrganization => ({
  id,
  name,
  addedOn: '2026-11-27T00:00:00.000Z',
  memberCount: 1,
  isDefault: false,
  type: 'business',
  workspaces: [{ id: `${id}-w`, name: `${name} books`, role: 'Owner' }],
  subscription: null,
  ...extra,
});

describe('invite links', () => {
  it('a workspace invite, a firm invite, and no token as no invite', () => {
    expect(inviteFromSearch('?token=abc')).toEqual({ token: 'abc', kind: 'workspace' });
    expect(inviteFromSearch(new URLSearchParams({ token: 'abc', kind: 'firm' }))).toEqual({ token: 'abc', kind: 'firm' });
    expect(inviteFromSearch('?token=abc&kind=other')).toEqual({ token: 'abc', kind: 'workspace' });
    expect(inviteFromSearch('?token=%20')).toBeNull();
    expect(inviteFromSearch('')).toBeNull();
  });
});

describe('client organizations', () => {
  const list = [org('1', 'zephyr labs'), org('2', 'Acme'), org('3', 'Bravo', { isDefault: true, workspaces: [{ id: 'x', name: 'Payroll', role: 'Owner' }] })];
  it('the default first, then by name; search on the name or a workspace name, case-insensitive', () => {
    expect(filterFirmOrganizations(list, '').map((o) => o.name)).toEqual(['Bravo', 'Acme', 'zephyr labs']);
    expect(filterFirmOrganizations(list, 'ZEPH').map((o) => o.id)).toEqual(['1']);
    expect(filterFirmOrganizations(list, 'payroll').map((o) => o.id)).toEqual(['3']);
    expect(filterFirmOrganizations(list, 'none')).toEqual([]);
  });

  it('owner and admin manage the firm; an accountant does not', () => {
    expect(isFirmManager({ role: 'owner' })).toBe(true);
    expect(isFirmManager({ role: 'admin' })).toBe(true);
    expect(isFirmManager({ role: 'accountant' })).toBe(false);
    expect(isFirmManager(undefined)).toBe(false);
  });

  it('a new organization needs a name of at most 100 characters', () => {
    expect(checkOrganizationName('  ')).toBe(ORGANIZATION_NAME_REQUIRED);
    expect(checkOrganizationName('x'.repeat(101))).toMatch(/at most 100/);
    expect(checkOrganizationName(' Acme ')).toBeUndefined();
  });
});
