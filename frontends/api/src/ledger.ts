// The ledger's REST shapes (generated from the gateway's OpenAPI) and what the hooks need of the transactions list:
// its query and page size. The screens' rules (filters, the spec §4 restriction mirror, category choices) are the
// accounting remote's (src/transactions/), decision 0034.
import type { QueryFor } from './typed';
import type { OperationResult, Schemas } from './types';

export type Category = Schemas['Category'];
export type CategoryClass = Category['type'];
export type CategoriesResponse = Schemas['CategoriesResponse'];
export type CreateCategoryBody = Schemas['CreateCategoryBody'];
export type CategoryResponse = Schemas['CategoryResponse'];
export type Biller = Schemas['Biller'];
export type BillersResponse = Schemas['BillersResponse'];
export type PageMeta = Schemas['PageMeta'];
export type Transaction = Schemas['Transaction'];
export type SplitChild = Transaction['splittedChildren'][number];
export type TransactionsPage = Schemas['TransactionsPage'];
export type TransactionUpdatedResponse = Schemas['TransactionUpdatedResponse'];
export type TransactionsUpdatedResponse = Schemas['TransactionsUpdatedResponse'];
export type BulkUpdateTransactionsBody = Schemas['BulkUpdateTransactionsBody'];
export type TransactionUpdateItem = NonNullable<BulkUpdateTransactionsBody['transactions']>[number];
export type FinalizeTransactionsBody = Schemas['FinalizeTransactionsBody'];
export type SplitTransactionBody = Schemas['SplitTransactionBody'];
export type UpdateSplitBody = Schemas['UpdateSplitBody'];
export type TransactionAuditLogsResponse = Schemas['TransactionAuditLogsResponse'];
export type TransactionAuditLog = TransactionAuditLogsResponse['data'][number];
export type FinalizeTransactionsResponse = OperationResult<'finalizeTransactions'>;
export type AccrualSchedule = Schemas['AccrualSchedule'];
export type AccrualMonth = AccrualSchedule['accruedChildren'][number];
export type AccrualCategory = AccrualSchedule['accrualCategory'];
export type CreateAccrualBody = Schemas['CreateAccrualBody'];
export type UpdateAccrualBody = Schemas['UpdateAccrualBody'];
export type AccrualResponse = Schemas['AccrualResponse'];

/** Spec §3 Accrual: where an accrued transaction waits before it is recognised month by month. */
export const ACCRUAL_CATEGORIES = ['Prepaid Expenses', 'Deferred Revenue'] as const satisfies readonly AccrualCategory[];

/** Spec §9: paging default 20, maximum 100. */
export const TRANSACTIONS_PAGE_SIZE = 20;

/** GET /transactions/v2's filters (spec §7), without the page, which the list hook adds. */
export type TransactionsQuery = Omit<QueryFor<'/transactions/v2'>, 'page' | 'take'>;
