/**
 * Per-screen default filter sets (spec §3: a filter set per screen key), kept across visits. Spec §9: the client
 * store persists to local storage under a root key; one entry per screen key below it. Each screen parses its own
 * entry (a stored value is never trusted: anything malformed takes the screen's defaults).
 */
export const FILTERS_STORAGE_KEY = 'ledgerline:filters';

/** Every screen's stored set, or none when storage is unreadable or holds something else. */
export function readStoredFilterSets(): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(FILTERS_STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One screen's stored set as stored (unparsed). */
export const readStoredFilterSet = (screen: string): unknown => readStoredFilterSets()[screen];

/** Stores a screen's set (the other screens' sets stay); `undefined` removes it. */
export function writeStoredFilterSet(screen: string, value: unknown): void {
  const all = readStoredFilterSets();
  if (value === undefined) delete all[screen];
  else all[screen] = value;
  try {
    localStorage.setItem(FILTERS_STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Storage full or disabled: the filters still apply for this visit.
  }
}
