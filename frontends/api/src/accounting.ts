// The chart of accounts and the general ledger (spec §3 Category / Account tree node, §9 indent and paging): payload
// types from the generated OpenAPI schema, the page size the hooks ask for, and the two rules the accounting and
// reports remotes share (the tree's indent, the ledger tab's URL and period). The screens' own rules are in the
// accounting remote (src/accounting/rules.ts).
import type { operations } from './gen/schema';
import type { OperationResult, Schemas } from './types';

export type AccountTreeNode = Schemas['AccountTreeNode'];
export type AccountClass = AccountTreeNode['type'];
export type ChartOfAccountsResponse = Schemas['ChartOfAccountsResponse'];
export type ChartParentCategory = ChartOfAccountsResponse['parentCategories'][number];
export type UpdateCategoryBody = Schemas['UpdateCategoryBody'];
export type MoveCategoryBody = Schemas['MoveCategoryBody'];
export type DeleteCategoriesBody = Schemas['DeleteCategoriesBody'];
export type DeleteCategoriesResponse = OperationResult<'deleteCategories'>;
export type GeneralLedgerResponse = Schemas['GeneralLedgerResponse'];
export type GeneralLedgerAccount = GeneralLedgerResponse['data'][number];
export type LedgerTransactionsResponse = Schemas['LedgerTransactionsResponse'];
export type LedgerLine = LedgerTransactionsResponse['data'][number];
export type LedgerTransactionsQuery = NonNullable<operations['getLedgerTransactions']['parameters']['query']>;

/** Spec §9: the tree indents 24px per level. */
export const TREE_INDENT_PX = 24;
/** Spec §9 paging: 20 lines a page. */
export const LEDGER_PAGE_SIZE = 20;

/** What the /accounting ledger tab reads from and writes to the URL (spec §2). */
export interface LedgerLocation {
  startDate: string;
  endDate: string;
  ledgerAccount?: string | null;
  ledgerTxn?: string | null;
}

/** The search string of the ledger tab: ?tab=ledger&ledgerAccount=…&startDate=…&endDate=…(&ledgerTxn=…). */
export function ledgerSearch(location: LedgerLocation): string {
  const params = new URLSearchParams({ tab: 'ledger' });
  if (location.ledgerAccount) params.set('ledgerAccount', location.ledgerAccount);
  params.set('startDate', location.startDate);
  params.set('endDate', location.endDate);
  if (location.ledgerTxn) params.set('ledgerTxn', location.ledgerTxn);
  return `?${params.toString()}`;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The period in the URL when both dates are well-formed and in order, else the fallback. */
export function periodFromSearch(params: URLSearchParams, fallback: { startDate: string; endDate: string }): { startDate: string; endDate: string } {
  const startDate = params.get('startDate') ?? '';
  const endDate = params.get('endDate') ?? '';
  if (ISO_DATE.test(startDate) && ISO_DATE.test(endDate) && startDate <= endDate) return { startDate, endDate };
  return fallback;
}
