import type { Category, CategoryClass } from '@ledgerline/api';
import type { Flow } from './filters';
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

/** Categories a transaction can be booked to: categories and sub-categories (levels 3 and 4), never a bank or card account. */
export function bookableCategories(categories: readonly Category[]): Category[] {
  return categories.filter((c) => c.level >= 3 && c.bankAccountId === null).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The accounts the ledger keeps itself (its default chart's system accounts): an accrual cannot be recognised
 * into them. The REST shape does not carry the ledger's purpose key, so they are known by their default names.
 */
export const LEDGER_KEPT_ACCOUNT_NAMES: readonly string[] = [
  'Cash and Cash Equivalents',
  'Credit Cards',
  'Prepaid Expenses',
  'Deferred Revenue',
  'Uncategorised Income',
  'Uncategorised Expense',
  'Retained Earnings',
  'Opening Balance Equity',
];

/** Categories an accrual can be recognised into: bookable ones other than the accounts the ledger keeps itself. */
export function recognisableCategories(categories: readonly Category[]): Category[] {
  return bookableCategories(categories).filter((c) => !LEDGER_KEPT_ACCOUNT_NAMES.includes(c.name));
}

/**
 * Where 'Add: "{text}"' puts a new category: a sibling of the transaction's current category when that is an
 * income or expense category, else of Uncategorised Income/Expense for its direction, else of the first category
 * of that class — that is, under the same group (level 2). GET /categories lists only categories (levels 3 and
 * 4), so the group is known by the parentId of a level-3 category. The coaId is the next one free after the
 * siblings' highest (coaId ≥ 10000); the server still refuses one used by a group it did not list.
 */
export function newCategoryPlacement(
  categories: readonly Category[],
  context: { categoryId?: string | null | undefined; flow: Exclude<Flow, 'all'> },
): { parentId: string; coaId: number } | null {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const categoryLevel = (c: Category | undefined): Category | undefined => {
    let node = c;
    while (node && node.level > 3) node = node.parentId ? byId.get(node.parentId) : undefined;
    return node?.level === 3 && node.parentId ? node : undefined;
  };
  const wanted: CategoryClass = context.flow === 'inflow' ? 'Income' : 'Expenses';
  const current = context.categoryId ? byId.get(context.categoryId) : undefined;
  const uncategorised = categories.find((c) => c.name === (context.flow === 'inflow' ? 'Uncategorised Income' : 'Uncategorised Expense'));
  const anchor =
    (current && (current.type === 'Income' || current.type === 'Expenses') ? categoryLevel(current) : undefined) ??
    categoryLevel(uncategorised) ??
    categories.filter((c) => c.level === 3 && c.type === wanted && c.parentId && c.bankAccountId === null).sort((a, b) => a.coaId - b.coaId)[0];
  const parentId = anchor?.parentId;
  if (!anchor || !parentId) return null;
  const taken = new Set(categories.map((c) => c.coaId));
  const siblings = categories.filter((c) => c.parentId === parentId).map((c) => c.coaId);
  let coaId = Math.max(anchor.coaId, ...siblings) + 1;
  while (taken.has(coaId)) coaId++;
  return { parentId, coaId };
}
