// The keyboard of the transactions list (issue #13): what each key does, as the '?' sheet lists it. TransactionsTab
// binds the actions; the keys and words live here so the sheet and the listener cannot disagree.

export type ReviewAction = 'next' | 'previous' | 'categorise' | 'select' | 'finalize' | 'open' | 'clear' | 'help';

export interface ReviewKey {
  action: ReviewAction;
  keys: readonly string[];
  label: string;
  description: string;
}

export const REVIEW_KEYS: readonly ReviewKey[] = [
  { action: 'next', keys: ['j', 'ArrowDown'], label: 'j or ↓', description: 'Next transaction' },
  { action: 'previous', keys: ['k', 'ArrowUp'], label: 'k or ↑', description: 'Previous transaction' },
  {
    action: 'categorise',
    keys: ['c'],
    label: 'c',
    description: 'Choose the category (of the selected transactions when some are selected): type to search, Enter applies',
  },
  { action: 'select', keys: ['x'], label: 'x', description: 'Select or unselect the transaction' },
  { action: 'finalize', keys: ['f'], label: 'f', description: 'Finalize or un-finalize (the selected transactions when some are selected)' },
  { action: 'open', keys: ['o'], label: 'o or Enter', description: 'Open the transaction’s details' },
  { action: 'clear', keys: ['Escape'], label: 'Esc', description: 'Close the category list, then clear the selection' },
  { action: 'help', keys: ['?'], label: '?', description: 'Show these shortcuts' },
];

/** The row the focus moves to: the first on the first key press, then one step, kept inside the list. */
export function nextFocus(current: number | null, step: 1 | -1, count: number): number | null {
  if (count === 0) return null;
  if (current === null) return step === 1 ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, current + step));
}
