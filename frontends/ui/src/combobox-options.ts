// The pure parts of the searchable dropdown (Combobox): the spec §5 search, the 'Add: "{text}"' offer, grouping
// under non-selectable headers, and which keystrokes start a fresh search. Unit tested in test/combobox-options.test.ts.

export interface ComboboxOptionItem {
  value: string;
  title: string;
  /**
   * The headers the option is listed under, outermost first (for a category: its class group, then its group,
   * as in the chart of accounts). Headers are not selectable; options without a group come first.
   */
  group?: readonly string[];
  /** Indent below its group: 1 for a sub-category listed after its category (24 px a level, spec §9). */
  depth?: number;
}

/** Spec §5: a case-insensitive "contains" match on the title. */
export function filterOptions<O extends { title: string }>(options: readonly O[], query: string): O[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...options];
  return options.filter((o) => o.title.toLowerCase().includes(needle));
}

export const addOptionLabel = (text: string) => `Add: "${text}"`;

/** Spec §5: the text 'Add: "{text}"' would create when the search found nothing, else null. */
export function addOptionText(query: string, matches: number, canCreate: boolean): string | null {
  const text = query.trim();
  return canCreate && text !== '' && matches === 0 ? text : null;
}

/** Spec §9: the search text clears 500 ms after the list closes. */
export const SEARCH_CLEAR_DELAY_MS = 500;

export interface OptionHeader {
  title: string;
  /** 0 for the outermost header (a class group), 1 for the next (a group), … */
  level: number;
}

export interface OptionSection<O> {
  /** The full header path of the section's options ('' joined for options without a group). */
  path: readonly string[];
  /** Headers to draw before the section: the parts of its path the previous section did not already show. */
  headers: OptionHeader[];
  options: O[];
}

/**
 * Groups options under their headers. Groups keep the order in which the options first name them (outer levels
 * first: all of a class group's groups come together), options keep their order within a group, and a header is
 * drawn once however many groups below it have options. Called on the search's matches, it keeps exactly the
 * headers of the matching options.
 */
export function groupOptions<O extends { group?: readonly string[] | undefined }>(options: readonly O[]): OptionSection<O>[] {
  const SEP = '\u0000';
  const firstSeen = new Map<string, number>();
  const sections = new Map<string, OptionSection<O>>();
  options.forEach((option, index) => {
    const path = option.group ?? [];
    for (let i = 1; i <= path.length; i++) {
      const prefix = path.slice(0, i).join(SEP);
      if (!firstSeen.has(prefix)) firstSeen.set(prefix, index);
    }
    const key = path.join(SEP);
    const section = sections.get(key) ?? { path, headers: [], options: [] };
    section.options.push(option);
    sections.set(key, section);
  });
  const rank = (path: readonly string[]) => path.map((_, i) => firstSeen.get(path.slice(0, i + 1).join(SEP)) ?? 0);
  const ordered = [...sections.values()].sort((a, b) => {
    // Ungrouped options first; then outer level first, by where the options first named it.
    if (a.path.length === 0 || b.path.length === 0) return a.path.length - b.path.length;
    const ra = rank(a.path);
    const rb = rank(b.path);
    for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
      const d = (ra[i] ?? -1) - (rb[i] ?? -1);
      if (d !== 0) return d;
    }
    return 0;
  });
  let previous: readonly string[] = [];
  for (const section of ordered) {
    let shared = 0;
    while (shared < section.path.length && shared < previous.length && section.path[shared] === previous[shared]) shared++;
    section.headers = section.path.slice(shared).map((title, i) => ({ title, level: shared + i }));
    previous = section.path;
  }
  return ordered;
}

/**
 * Whether a key press types into the search (a printable character, or deleting). While the input still shows the
 * chosen option's name, such a key replaces the name instead of editing it, so the first keystroke starts a fresh
 * search ("soft", never "Uncategorised Expensesoft").
 */
export function startsSearch(event: { key: string; ctrlKey: boolean; metaKey: boolean }): boolean {
  if (event.ctrlKey || event.metaKey) return false;
  return event.key.length === 1 || event.key === 'Backspace' || event.key === 'Delete';
}
