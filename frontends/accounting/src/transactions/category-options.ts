import type { Category } from '@ledgerline/api';
import type { ComboboxOptionItem } from '@ledgerline/ui';

/**
 * The category dropdown's options, listed as the chart of accounts is: under their class group (level 1) and
 * group (level 2) as non-selectable headers, groups in chart order (by their categories' lowest coaId),
 * categories by name within a group, each sub-category (level 4) right after its category, indented. GET
 * /categories lists levels 3 and 4 only; a category's `path.names` runs from its class group down to itself.
 */
export function categoryOptions(categories: readonly Category[]): ComboboxOptionItem[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const groupOf = (c: Category) => c.path.names.slice(0, 2);
  const groupKey = (c: Category) => groupOf(c).join('\u0000');
  const groupRank = new Map<string, number>();
  for (const c of categories) groupRank.set(groupKey(c), Math.min(groupRank.get(groupKey(c)) ?? Infinity, c.coaId));
  // The level-3 category a sub-category belongs to (itself for a category), when listed.
  const categoryOf = (c: Category): Category => {
    const parent = c.level > 3 && c.parentId ? byId.get(c.parentId) : undefined;
    return parent ? categoryOf(parent) : c;
  };
  const sorted = [...categories].sort((a, b) => {
    const byGroup = (groupRank.get(groupKey(a)) ?? 0) - (groupRank.get(groupKey(b)) ?? 0) || groupKey(a).localeCompare(groupKey(b));
    if (byGroup !== 0) return byGroup;
    const [ca, cb] = [categoryOf(a), categoryOf(b)];
    if (ca !== cb) return ca.name.localeCompare(cb.name) || ca.coaId - cb.coaId;
    return a.level - b.level || a.name.localeCompare(b.name);
  });
  return sorted.map((c) => ({ value: c.id, title: c.name, group: groupOf(c), depth: Math.max(0, c.level - 3) }));
}
