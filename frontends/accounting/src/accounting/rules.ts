// The chart of accounts' and the general ledger's own rules (spec §3 Account tree node, §5 coaId, §9 infinite scroll;
// moved from the api package, issue #14 item 8): the rows a tree shows, its balances and move targets, the account
// form's checks, a ledger line's drawer link, the scroll that fetches more, the totals. Pure, tested in
// test/accounting-rules.test.ts.
import type { AccountTreeNode, ChartParentCategory, GeneralLedgerAccount, LedgerLine } from '@ledgerline/api';

/** Spec §5: coaId has a minimum of 10000. */
export const COA_ID_MINIMUM = 10_000;

export const COA_ID_MESSAGE = 'coaId must be minimum 5 digits number';

/** Spec §9: the next page is fetched when the remaining scroll is within 2.2 viewports, at most every 200 ms. */
export const INFINITE_SCROLL_VIEWPORTS = 2.2;

export const INFINITE_SCROLL_THROTTLE_MS = 200;

/** The ledger line source a bank transaction books (it opens in the transaction drawer). */
export const BANK_TRANSACTION_SOURCE = 'WorkspaceTransaction';

export interface ChartRow {
  node: AccountTreeNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** The rows a tree shows: a node's children only while it is expanded, each with its depth (0 for the roots). */
export function visibleChartRows(nodes: readonly AccountTreeNode[], expanded: ReadonlySet<string>, depth = 0): ChartRow[] {
  const rows: ChartRow[] = [];
  for (const node of nodes) {
    const open = expanded.has(node.id);
    rows.push({ node, depth, hasChildren: node.children.length > 0, expanded: open });
    if (open) rows.push(...visibleChartRows(node.children, expanded, depth + 1));
  }
  return rows;
}

/** Every node id that has children (for "expand all"). */
export function expandableIds(nodes: readonly AccountTreeNode[]): string[] {
  return nodes.flatMap((n) => (n.children.length > 0 ? [n.id, ...expandableIds(n.children)] : []));
}

/** The ids of the nodes on the way to `id` (its ancestors), so a found account can be shown expanded. */
export function ancestorIds(nodes: readonly AccountTreeNode[], id: string): string[] | null {
  for (const node of nodes) {
    if (node.id === id) return [];
    const below = ancestorIds(node.children, id);
    if (below !== null) return [node.id, ...below];
  }
  return null;
}

/**
 * What a row shows as its balance: its own plus its sub-accounts'. The ledger rolls parents up itself
 * (issue #12: the chart's figures are the books' own, fiscal year and Retained Earnings included), so
 * this is the node's balance as answered.
 */
export function treeBalance(node: AccountTreeNode): number {
  return node.balance;
}

/** Levels under a node (0 for a leaf). */
export function subtreeHeight(node: AccountTreeNode): number {
  return node.children.reduce((h, c) => Math.max(h, 1 + subtreeHeight(c)), 0);
}

/**
 * Where an account (not a category type) may be moved: a parent of the same class (category type), not the account itself, not one
 * of its sub-accounts, not its current parent, and shallow enough that nothing ends up below level 4.
 */
export function moveTargets(parents: readonly ChartParentCategory[], node: AccountTreeNode): ChartParentCategory[] {
  if (node.level === 1) return []; // a category type stays where it is
  const height = subtreeHeight(node);
  return parents.filter(
    (p) => p.type === node.type && p.id !== node.id && p.id !== node.parentId && !p.path.ids.includes(node.id) && p.level + 1 + height <= 4,
  );
}

export interface AccountFormValues {
  name: string;
  coaId: string;
  parentId: string;
}

export type AccountFormErrors = Partial<Record<keyof AccountFormValues, string>>;

/** The add and edit form's checks (the parent only when adding); coaId per spec §5. */
export function validateAccountForm(values: AccountFormValues, mode: 'add' | 'edit'): AccountFormErrors {
  const errors: AccountFormErrors = {};
  if (values.name.trim() === '') errors.name = 'Name is required';
  const coaId = values.coaId.trim();
  if (coaId === '') errors.coaId = 'coaId is required';
  else if (!/^\d+$/.test(coaId) || Number(coaId) < COA_ID_MINIMUM) errors.coaId = COA_ID_MESSAGE;
  if (mode === 'add' && values.parentId === '') errors.parentId = 'Parent account is required';
  return errors;
}

/** The transaction drawer of a line that books a bank transaction, else null. */
export function transactionLinkOf(line: Pick<LedgerLine, 'transactionId' | 'sourceType' | 'isOpeningBalance'>): string | null {
  if (line.isOpeningBalance || line.transactionId === null || line.sourceType !== BANK_TRANSACTION_SOURCE) return null;
  return `/transactions?txn=${encodeURIComponent(line.transactionId)}`;
}

/**
 * The line `ledgerTxn` names: a line id, or a transaction id (links from other screens know the transaction),
 * in which case its latest line — the booking that stands after any reversals — is the one.
 */
export function findLedgerLine<L extends Pick<LedgerLine, 'id' | 'transactionId'>>(lines: readonly L[], ledgerTxn: string | null): L | null {
  if (ledgerTxn === null || ledgerTxn === '') return null;
  return lines.find((l) => l.id === ledgerTxn) ?? lines.findLast((l) => l.transactionId === ledgerTxn) ?? null;
}

/** Spec §9: more is fetched once the unseen part below is within 2.2 viewports. */
export function nearScrollEnd(metrics: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  const remaining = metrics.scrollHeight - metrics.scrollTop - metrics.clientHeight;
  return remaining <= INFINITE_SCROLL_VIEWPORTS * metrics.clientHeight;
}

/** Totals of the general-ledger rows shown (debits equal credits when every account is listed). */
export function generalLedgerTotals(rows: readonly GeneralLedgerAccount[]): { debit: number; credit: number } {
  const cents = rows.reduce((t, r) => ({ debit: t.debit + Math.round(r.debit * 100), credit: t.credit + Math.round(r.credit * 100) }), { debit: 0, credit: 0 });
  return { debit: cents.debit / 100, credit: cents.credit / 100 };
}
