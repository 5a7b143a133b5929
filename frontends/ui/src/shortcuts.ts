// Single-key shortcuts of a screen (j/k, c, x, f, ?), as mail and review tools have them. Pure rules here; the hook
// that listens is components/Shortcuts.tsx.

/** A shortcut as the shortcut sheet lists it and the listener matches it. */
export interface Shortcut {
  /** The `KeyboardEvent.key` values that trigger it ('j', 'ArrowDown', '?'). */
  keys: readonly string[];
  /** What the sheet shows for the keys ('j or ↓'). */
  label: string;
  /** What it does, in the sheet. */
  description: string;
  run: () => void;
}

/** The parts of a keydown that decide whether a shortcut may fire (a plain object in unit tests). */
export interface ShortcutKeyEvent {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  target: {
    tagName?: string;
    isContentEditable?: boolean;
    type?: string;
    closest?: (selector: string) => unknown;
  } | null;
}

/** Input types a keystroke does not type into: a shortcut still fires while one has the focus. */
const KEYLESS_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** True when the keystroke types into a field (text input, text area, select, editable text, an open listbox). */
export function isTypingTarget(target: ShortcutKeyEvent['target']): boolean {
  if (target === null) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !KEYLESS_INPUTS.has((target.type ?? 'text').toLowerCase());
  // A listbox or menu handles its own letters (type-ahead) and arrows.
  return Boolean(target.closest?.('[role="listbox"], [role="menu"], [role="combobox"]'));
}

/**
 * The shortcut a keydown triggers, or null: none while typing in a field, with Ctrl, ⌘ or Alt held (the browser's
 * and the system's own shortcuts), or when something else already handled the key. Shift is allowed: '?' needs it.
 */
export function matchShortcut<T extends Pick<Shortcut, 'keys'>>(event: ShortcutKeyEvent, shortcuts: readonly T[]): T | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isTypingTarget(event.target)) return null;
  return shortcuts.find((s) => s.keys.includes(event.key)) ?? null;
}
