import { describe, expect, it } from 'vitest';
import { isTypingTarget, matchShortcut, type ShortcutKeyEvent } from '../src/shortcuts';

const shortcuts = [
  { keys: ['j', 'ArrowDown'], name: 'next' },
  { keys: ['?'], name: 'help' },
];
const key = (k: string, target: ShortcutKeyEvent['target'] = { tagName: 'BODY' }, extra: Partial<ShortcutKeyEvent> = {}): ShortcutKeyEvent => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  defaultPrevented: false,
  target,
  ...extra,
});

describe('single-key shortcuts', () => {
  it('matches a key on the page, a row or a checkbox', () => {
    expect(matchShortcut(key('j'), shortcuts)?.name).toBe('next');
    expect(matchShortcut(key('ArrowDown', { tagName: 'TR' }), shortcuts)?.name).toBe('next');
    expect(matchShortcut(key('j', { tagName: 'INPUT', type: 'checkbox' }), shortcuts)?.name).toBe('next');
    // '?' is typed with Shift: Shift does not stop a shortcut.
    expect(matchShortcut(key('?'), shortcuts)?.name).toBe('help');
    expect(matchShortcut(key('q'), shortcuts)).toBeNull();
  });

  it('never fires while the person types in a field', () => {
    for (const target of [
      { tagName: 'INPUT' },
      { tagName: 'INPUT', type: 'search' },
      { tagName: 'TEXTAREA' },
      { tagName: 'SELECT' },
      { tagName: 'DIV', isContentEditable: true },
    ]) {
      expect(isTypingTarget(target), JSON.stringify(target)).toBe(true);
      expect(matchShortcut(key('j', target), shortcuts)).toBeNull();
    }
    // A listbox's own type-ahead and arrows.
    const inListbox = { tagName: 'DIV', closest: (selector: string) => (selector.includes('listbox') ? {} : null) };
    expect(matchShortcut(key('ArrowDown', inListbox), shortcuts)).toBeNull();
  });

  it('leaves Ctrl, ⌘ and Alt combinations and handled keys to others', () => {
    expect(matchShortcut(key('j', undefined, { ctrlKey: true }), shortcuts)).toBeNull();
    expect(matchShortcut(key('j', undefined, { metaKey: true }), shortcuts)).toBeNull();
    expect(matchShortcut(key('j', undefined, { altKey: true }), shortcuts)).toBeNull();
    expect(matchShortcut(key('j', undefined, { defaultPrevented: true }), shortcuts)).toBeNull();
  });
});
