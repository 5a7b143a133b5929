/**
 * User-facing texts. Spec §8 success messages are quoted verbatim; the spec does not show the server's
 * wording of refusals, so those are ours (stable, tested, each with an appErrorCode).
 */
export const SUCCESS = {
  categoryAdded: 'Successfully added',
  categoryRemoved: 'Successfully removed the chart of account',
  categoryUpdated: 'Category updated successfully.',
  transactionsUpdated: 'Transactions have been updated successfully.',
  transactionUpdated: 'Transaction has been updated successfully.',
  transactionSplit: 'Transaction has been split successfully.',
  transactionAccrued: 'Transaction has been accrued successfully.',
} as const;

export const MSG = {
  coaIdMinimum: 'coaId must be minimum 5 digits number',
  coaIdTaken: 'coaId is already used by another account',
  transactionsEmpty: 'transactions cannot be empty',
  transactionNotFound: 'Transaction not found',
  categoryNotFound: 'Category not found',
  billerNotFound: 'Biller not found',
  ledgerAccountNotFound: 'Ledger account not found',
  categoryNotPostable: 'categoryId must be a category or sub-category, not a category type or group',
  categoryIsBankAccount: 'categoryId cannot be a bank or card account',
  nameRequired: 'name is required',
  parentRequired: 'parentId is required',
  parentTooDeep: 'A sub-category cannot have sub-categories',
  page: 'page must not be less than 1',
  take: 'take must be between 1 and 100',
  amountNonNegative: (field: string) => `${field} must not be less than 0`,
  uuid: (field: string) => `${field} must be a UUID`,
  date: (field: string) => `Invalid ${field} format`,
  dateOrder: 'startDate cannot be greater than endDate',
  oneOf: (field: string, values: readonly string[]) => `${field} must be one of: ${values.join(', ')}`,
  required: (field: string) => `${field} is required`,
  categoryIdsEmpty: 'categoryIds cannot be empty',
  categoryHasLines: 'This account has transactions and cannot be removed',
  categoryHasChildren: 'This account has sub-categories. Move or remove them first',
  categoryIsSystem: 'This account is used by the ledger and cannot be removed',
  categoryIsBank: 'A bank or card account is removed by unlinking it',
  categoryIsClass: 'A category type cannot be changed',
  moveAcrossClass: 'A category can only be moved within its category type',
  moveIntoItself: 'A category cannot be moved under itself or its sub-categories',
  moveTooDeep: 'The move would place sub-categories deeper than four levels',
  groupsAndTagsType: 'groupsAndTagsType must be one of: groups, tags',
  splitSum: 'Split amounts must add up to the transaction amount',
  splitAmount: (field: string) => `${field} must be greater than 0`,
  splitEmpty: 'splitTransactions cannot be empty',
  notSplit: 'This transaction is not split',
  splitPartNotFound: 'Split part not found',
  bankAccountNotLinked: 'The bank account of this transaction is not linked to the ledger yet',
} as const;

/** Spec §4 restrictions (first match applies) and edit rules: code and message of each. */
export const RESTRICTION = {
  linked: { code: 'TRANSACTION_LINKED', message: (what: string) => `This transaction is linked to a ${what} and cannot be edited here` },
  finalized: { code: 'TRANSACTION_FINALIZED', message: 'This transaction is finalized. Un-finalize it before editing' },
  transfer: { code: 'TRANSACTION_TRANSFER', message: 'Transfer transactions cannot be edited' },
  synced: { code: 'TRANSACTION_SYNCED', message: 'This transaction is synced to the accounting package. Un-sync it before editing' },
  accrued: { code: 'TRANSACTION_ACCRUED', message: 'This transaction is accrued. Edit or stop its accrual instead' },
  split: { code: 'TRANSACTION_SPLIT', message: 'This transaction is split. Edit its split instead' },
  splitChild: { code: 'TRANSACTION_SPLIT_CHILD', message: 'A part of a split transaction cannot be edited on its own. Edit the split instead' },
  accrualChild: { code: 'TRANSACTION_ACCRUAL_CHILD', message: 'An accrual entry cannot be edited on its own. Edit the accrual instead' },
  openingBalance: { code: 'TRANSACTION_OPENING_BALANCE', message: 'An opening balance cannot be edited' },
  removed: { code: 'TRANSACTION_REMOVED', message: 'This transaction was removed by the bank and cannot be edited' },
} as const;
