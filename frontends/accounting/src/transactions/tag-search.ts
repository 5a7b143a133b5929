/** The comment tag picker's rules (decision 0036): pure, tested in test/tag-search.test.ts. */

export interface Member {
  id: string;
  name: string;
  email: string;
  former: boolean;
}

/** What the picker shows for a member: their name, else their email. */
export const memberLabel = (m: { name: string; email: string; id: string }): string => m.name || m.email || m.id;

/**
 * The members a comment can tag that match the search: current members only, not those already chosen; a
 * case-insensitive "contains" on the name or the email (spec §5's search, on both); by name.
 */
export function tagCandidates(members: readonly Member[], query: string, chosen: readonly string[]): Member[] {
  const needle = query.trim().toLowerCase();
  const taken = new Set(chosen);
  return members
    .filter((m) => !m.former && !taken.has(m.id))
    .filter((m) => needle === '' || m.name.toLowerCase().includes(needle) || m.email.toLowerCase().includes(needle))
    .sort((a, b) => memberLabel(a).localeCompare(memberLabel(b), undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id));
}
