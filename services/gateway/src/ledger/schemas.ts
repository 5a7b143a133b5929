/**
 * REST shapes of the ledger routes (spec §3 Category, Transaction, Biller; §7 Categories, Transactions,
 * Billers, Ledger). Money is decimal dollars with 2 places at this edge (cents inside the services);
 * dates are YYYY-MM-DD. Bodies check shapes only: the ledger service owns the messages of the rules.
 */
import { bool, int, int32, num, ref, str } from '../http/schemas.js';

const nullableStr = { type: ['string', 'null'] } as const;
/** Reads after writes: every answer of a change to the books carries it. */
export const SEQ_PROPERTY = {
  type: 'integer',
  description:
    "The ledger's commit sequence after this change (its last entry, or the workspace's current one when it posted nothing). Pass it as `seq` to a report: the report waits (up to 2 s) until it reflects the change.",
} as const;

export const LedgerPageMetaSchema = {
  $id: 'PageMeta',
  type: 'object',
  description: 'Paging of a list answer (page from 1; take 1–100, default 20).',
  properties: { page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool },
  required: ['page', 'take', 'itemCount', 'pageCount', 'hasPreviousPage', 'hasNextPage'],
  additionalProperties: false,
} as const;

/** The seq a chart change answers: its own number from the entries' sequence, carried by chart.changed. */
export const CHART_SEQ_PROPERTY = {
  type: 'integer',
  description:
    "The chart change's own number from the ledger's commit sequence (chart.changed carries it). Pass it as `seq` to a report: the report waits (up to 2 s) until it reflects the change.",
} as const;

export const ChartChangedResponseSchema = {
  $id: 'ChartChangedResponse',
  type: 'object',
  description: "Done; a message to show and the change's seq.",
  properties: { message: { type: 'string' }, seq: CHART_SEQ_PROPERTY },
  required: ['message', 'seq'],
  additionalProperties: false,
} as const;

export const FiscalYearSchema = {
  $id: 'FiscalYear',
  type: 'object',
  description:
    "The first month of the workspace's fiscal year (1 = January, the default). Income and expense accounts show only the current fiscal year; earlier years' net income is in Retained Earnings.",
  properties: { fiscalYearStartMonth: { type: 'integer', minimum: 1, maximum: 12 } },
  required: ['fiscalYearStartMonth'],
  additionalProperties: false,
} as const;

export const FiscalYearChangedSchema = {
  $id: 'FiscalYearChanged',
  type: 'object',
  description: "The fiscal year's first month as changed, a message to show and the change's seq.",
  properties: { fiscalYearStartMonth: { type: 'integer', minimum: 1, maximum: 12 }, message: { type: 'string' }, seq: CHART_SEQ_PROPERTY },
  required: ['fiscalYearStartMonth', 'message', 'seq'],
  additionalProperties: false,
} as const;

export const FiscalYearBodySchema = {
  $id: 'FiscalYearBody',
  type: 'object',
  properties: { fiscalYearStartMonth: { ...int32, description: '1 (January) to 12 (December).' } },
  required: ['fiscalYearStartMonth'],
  additionalProperties: false,
} as const;

export const CategorySchema = {
  $id: 'Category',
  type: 'object',
  description:
    "A ledger account at one of four levels (1 category_type, 2 category_group, 3 category, 4 sub_category). balance is in the account's normal direction and includes its sub-accounts; income and expense accounts count only the current fiscal year, and Retained Earnings adds the net income of every earlier fiscal year.",
  properties: {
    id: str,
    name: str,
    coaId: int,
    type: { type: 'string', enum: ['Assets', 'Liability', 'Income', 'Expenses', 'Transfer', 'Equity'] },
    level: int,
    balance: num,
    group: str,
    tag: str,
    parentId: nullableStr,
    isUserCreated: bool,
    qboSynced: bool,
    bankAccountId: nullableStr,
    systemKey: {
      type: ['string', 'null'],
      description:
        "The account's role in the books (cash, credit_cards, uncategorised_income, uncategorised_expense, retained_earnings, opening_balance_equity, prepaid_expenses, deferred_revenue, ...); null for ordinary accounts.",
    },
    path: {
      type: 'object',
      properties: { ids: { type: 'array', items: str }, names: { type: 'array', items: str } },
      required: ['ids', 'names'],
      additionalProperties: false,
    },
  },
  required: ['id', 'name', 'coaId', 'type', 'level', 'balance', 'group', 'tag', 'parentId', 'isUserCreated', 'qboSynced', 'bankAccountId', 'systemKey', 'path'],
  additionalProperties: false,
} as const;

export const AccountTreeNodeSchema = {
  $id: 'AccountTreeNode',
  type: 'object',
  description: 'A node of the chart-of-accounts tree, with its children.',
  properties: {
    ...CategorySchema.properties,
    children: { type: 'array', items: { $ref: 'AccountTreeNode#' } },
  },
  required: [...CategorySchema.required, 'children'],
  additionalProperties: false,
} as const;

export const CategoriesResponseSchema = {
  $id: 'CategoriesResponse',
  type: 'object',
  properties: { categories: { type: 'array', items: { $ref: 'Category#' } } },
  required: ['categories'],
  additionalProperties: false,
} as const;

export const ChartOfAccountsResponseSchema = {
  $id: 'ChartOfAccountsResponse',
  type: 'object',
  properties: {
    chartOfAccounts: { type: 'array', items: { $ref: 'AccountTreeNode#' } },
    parentCategories: { type: 'array', items: { $ref: 'Category#' } },
    fiscalYearStartMonth: {
      type: 'integer',
      minimum: 1,
      maximum: 12,
      description: 'The fiscal year starts on the first day of this month (1 = January, the default).',
    },
  },
  required: ['chartOfAccounts', 'parentCategories', 'fiscalYearStartMonth'],
  additionalProperties: false,
} as const;

export const CreateCategoryBodySchema = {
  $id: 'CreateCategoryBody',
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 500 },
    coaId: int,
    parentId: { type: 'string', maxLength: 100 },
    group: { type: 'string', maxLength: 200 },
    tag: { type: 'string', maxLength: 200 },
  },
  additionalProperties: false,
} as const;

export const CategoryResponseSchema = {
  $id: 'CategoryResponse',
  type: 'object',
  properties: { message: str, category: { $ref: 'Category#' }, seq: CHART_SEQ_PROPERTY },
  required: ['message', 'category', 'seq'],
  additionalProperties: false,
} as const;

export const GroupsAndTagsResponseSchema = {
  $id: 'GroupsAndTagsResponse',
  type: 'object',
  properties: { groups: { type: 'array', items: str }, tags: { type: 'array', items: str } },
  required: ['groups', 'tags'],
  additionalProperties: false,
} as const;

export const UpdateCategoryBodySchema = {
  $id: 'UpdateCategoryBody',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 100 },
    name: { type: 'string', maxLength: 500 },
    coaId: int,
    group: { type: 'string', maxLength: 200 },
    tag: { type: 'string', maxLength: 200 },
  },
  additionalProperties: false,
} as const;

export const MoveCategoryBodySchema = {
  $id: 'MoveCategoryBody',
  type: 'object',
  properties: { categoryId: { type: 'string', maxLength: 100 }, parentId: { type: 'string', maxLength: 100 } },
  additionalProperties: false,
} as const;

export const DeleteCategoriesBodySchema = {
  $id: 'DeleteCategoriesBody',
  type: 'object',
  properties: { categoryIds: { type: 'array', maxItems: 500, items: { type: 'string', maxLength: 100 } } },
  additionalProperties: false,
} as const;

export const BillerSchema = {
  $id: 'Biller',
  type: 'object',
  properties: { id: str, name: str, categoryId: nullableStr },
  required: ['id', 'name', 'categoryId'],
  additionalProperties: false,
} as const;

const accountRef = { type: 'object', properties: { id: str, name: str }, required: ['id', 'name'], additionalProperties: false } as const;

export const BankAccountTransactionSchema = {
  $id: 'BankAccountTransaction',
  type: 'object',
  description:
    "The bank transaction a ledger line books (fetchBankAccountTransaction=true): id is the workspace transaction's id (GET /transactions/v2/{id}, the drawer's ?txn=); amount > 0 is money into the bank account.",
  properties: {
    id: str,
    bankTransactionId: str,
    dateTime: str,
    amount: num,
    isoCurrencyCode: str,
    name: str,
    memo: str,
    biller: { anyOf: [{ $ref: 'Biller#' }, { type: 'null' }] },
    bankAccountId: str,
    bankLedgerAccountId: nullableStr,
    bankAccountName: str,
    categoryId: nullableStr,
    isTransactionFinalized: bool,
    pending: bool,
  },
  required: [
    'id',
    'bankTransactionId',
    'dateTime',
    'amount',
    'isoCurrencyCode',
    'name',
    'memo',
    'biller',
    'bankAccountId',
    'bankLedgerAccountId',
    'bankAccountName',
    'categoryId',
    'isTransactionFinalized',
    'pending',
  ],
  additionalProperties: false,
} as const;

export const TransactionSchema = {
  $id: 'Transaction',
  type: 'object',
  description: 'A workspace transaction (the bookkeeping view of a bank transaction). amount > 0 is money into the bank account.',
  properties: {
    id: str,
    vendorTransactionId: str,
    biller: { anyOf: [{ $ref: 'Biller#' }, { type: 'null' }] },
    memo: str,
    amount: num,
    dateTime: str,
    isoCurrencyCode: str,
    accountId: str,
    ledgerAccountId: nullableStr,
    runningBalance: { type: ['number', 'null'] },
    category: {
      anyOf: [
        {
          type: 'object',
          properties: { id: str, name: str, coaId: int, type: str, level: int, parentId: nullableStr },
          required: ['id', 'name', 'coaId', 'type', 'level', 'parentId'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    debit: num,
    credit: num,
    debitJournalId: nullableStr,
    creditJournalId: nullableStr,
    debitAccount: accountRef,
    creditAccount: accountRef,
    isTransactionFinalized: bool,
    isAccruedParent: bool,
    isAccruedChildren: bool,
    isSplittedParent: bool,
    isSplittedChildren: bool,
    isOpeningBalance: bool,
    entityType: nullableStr,
    entityId: nullableStr,
    qboSynced: bool,
    pending: bool,
    vendorId: nullableStr,
    appliedRuleId: nullableStr,
    bankAccountTransaction: { anyOf: [{ $ref: 'BankAccountTransaction#' }, { type: 'null' }], description: 'Only with fetchBankAccountTransaction=true.' },
    splittedChildren: {
      type: 'array',
      description: 'The other parts of a split transaction (the transaction keeps its own part and category); amounts signed like the transaction.',
      items: {
        type: 'object',
        properties: { id: str, amount: num, categoryId: str, categoryName: str },
        required: ['id', 'amount', 'categoryId', 'categoryName'],
        additionalProperties: false,
      },
    },
    transferPair: {
      anyOf: [
        {
          type: 'object',
          description:
            "The other side of a paired transfer: its id (GET /transactions/v2/{id}), bank account (banking's id) and its ledger account's name, its signed amount, date and name.",
          properties: { id: str, accountId: str, accountName: str, amount: num, dateTime: str, name: str },
          required: ['id', 'accountId', 'accountName', 'amount', 'dateTime', 'name'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    transferStatus: {
      anyOf: [{ type: 'string', enum: ['paired', 'review'] }, { type: 'null' }],
      description: 'paired; review = in a Transfer account without a pair (a one-sided transfer); null otherwise.',
    },
    creationMode: {
      anyOf: [{ type: 'string', enum: ['manual', 'auto'] }, { type: 'null' }],
      description:
        "How the transaction got its category (spec platform-core §4): manual = a user; auto = the learned categorisation applied its suggestion; null = on import (a merchant's category or a vendor rule).",
    },
    suggestion: {
      anyOf: [
        {
          type: 'object',
          description:
            "The learned categorisation's suggestion when it was not sure enough to apply it (accept it with PATCH /transactions categoryId); confidence 0..1.",
          properties: { categoryId: str, categoryName: str, vendorId: nullableStr, confidence: num },
          required: ['categoryId', 'categoryName', 'vendorId', 'confidence'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    accrualStartDate: nullableStr,
    accrualEndDate: nullableStr,
    accrualStatus: { type: ['string', 'null'], description: 'active or stopped; null when the transaction is not accrued.' },
    accruedChildren: {
      type: 'array',
      description:
        "An accrued transaction's months (GET /transactions/accrual-schedule has the whole schedule): runningBalance is what is left in Prepaid Expenses / Deferred Revenue after the month.",
      items: {
        type: 'object',
        properties: { id: str, accrualAmount: num, accrualCategory: str, accrualDateTime: str, isTransactionAdded: bool, runningBalance: num },
        required: ['id', 'accrualAmount', 'accrualCategory', 'accrualDateTime', 'isTransactionAdded', 'runningBalance'],
        additionalProperties: false,
      },
    },
  },
  required: [
    'id',
    'vendorTransactionId',
    'biller',
    'memo',
    'amount',
    'dateTime',
    'isoCurrencyCode',
    'accountId',
    'ledgerAccountId',
    'runningBalance',
    'category',
    'debit',
    'credit',
    'debitJournalId',
    'creditJournalId',
    'debitAccount',
    'creditAccount',
    'isTransactionFinalized',
    'isAccruedParent',
    'isAccruedChildren',
    'isSplittedParent',
    'isSplittedChildren',
    'isOpeningBalance',
    'entityType',
    'entityId',
    'qboSynced',
    'pending',
    'vendorId',
    'appliedRuleId',
    'splittedChildren',
    'transferPair',
    'transferStatus',
    'creationMode',
    'suggestion',
  ],
  additionalProperties: false,
} as const;

export const TransactionsPageSchema = {
  $id: 'TransactionsPage',
  type: 'object',
  properties: { data: { type: 'array', items: { $ref: 'Transaction#' } }, meta: { $ref: 'PageMeta#' } },
  required: ['data', 'meta'],
  additionalProperties: false,
} as const;

export const TransactionUpdatedResponseSchema = {
  $id: 'TransactionUpdatedResponse',
  type: 'object',
  properties: { message: str, transaction: { $ref: 'Transaction#' }, seq: SEQ_PROPERTY },
  required: ['message', 'transaction', 'seq'],
  additionalProperties: false,
} as const;

export const TransactionsUpdatedResponseSchema = {
  $id: 'TransactionsUpdatedResponse',
  type: 'object',
  properties: { message: str, transactions: { type: 'array', items: { $ref: 'Transaction#' } }, seq: SEQ_PROPERTY },
  required: ['message', 'transactions', 'seq'],
  additionalProperties: false,
} as const;

export const CategoryIdBodySchema = {
  $id: 'CategoryIdBody',
  type: 'object',
  properties: { categoryId: { type: 'string', maxLength: 100 } },
  additionalProperties: false,
} as const;

export const BulkUpdateBodySchema = {
  $id: 'BulkUpdateTransactionsBody',
  type: 'object',
  description: 'Spec §3 "Transaction update item": at least one transaction.',
  properties: {
    transactions: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', maxLength: 100 },
          categoryId: { type: 'string', maxLength: 100 },
          vendorId: { type: 'string', maxLength: 100 },
          billerName: { type: 'string', maxLength: 500 },
          appliedRuleId: { type: 'string', maxLength: 100 },
          isTxnFinalized: bool,
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const splitItem = (withId: boolean) =>
  ({
    type: 'object',
    properties: { ...(withId ? { id: { type: 'string', maxLength: 100 } } : {}), amount: num, categoryId: { type: 'string', maxLength: 100 } },
    additionalProperties: false,
  }) as const;

export const SplitBodySchema = {
  $id: 'SplitTransactionBody',
  type: 'object',
  description: 'Spec §3 "Split": the parent keeps `amount` in `categoryId`; the parts (positive amounts) must add up to the transaction within 0.01.',
  properties: { parentTransaction: splitItem(true), splitTransactions: { type: 'array', maxItems: 100, items: splitItem(false) } },
  additionalProperties: false,
} as const;

export const UpdateSplitBodySchema = {
  $id: 'UpdateSplitBody',
  type: 'object',
  description:
    'Change parts (updateTransactions), add parts (splitTransactions) and delete parts (deleteTransactionIds); with no part left the transaction is no longer split.',
  properties: {
    parentTransaction: splitItem(true),
    updateTransactions: { type: 'array', maxItems: 100, items: splitItem(true) },
    splitTransactions: { type: 'array', maxItems: 100, items: splitItem(false) },
    deleteTransactionIds: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 100 } },
  },
  additionalProperties: false,
} as const;

export const FinalizeBodySchema = {
  $id: 'FinalizeTransactionsBody',
  type: 'object',
  description: 'Finalize (isTxnFinalized true, the default) or un-finalize (false) transactions.',
  properties: { transactionIds: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 100 } }, isTxnFinalized: bool },
  additionalProperties: false,
} as const;

export const AuditLogsResponseSchema = {
  $id: 'TransactionAuditLogsResponse',
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        description: 'One change to a transaction; userId is null for changes the bank feed made.',
        properties: {
          id: str,
          transactionId: str,
          userId: nullableStr,
          event: {
            type: 'string',
            enum: [
              'imported',
              'bank_modified',
              'bank_removed',
              'categorised',
              'finalized',
              'unfinalized',
              'split',
              'split_updated',
              'unsplit',
              'biller_changed',
              'accrued',
              'accrual_updated',
              'accrual_stopped',
              'unaccrued',
            ],
          },
          details: { type: 'object', additionalProperties: true },
          createdAt: str,
        },
        required: ['id', 'transactionId', 'userId', 'event', 'details', 'createdAt'],
        additionalProperties: false,
      },
    },
    meta: { $ref: 'PageMeta#' },
  },
  required: ['data', 'meta'],
  additionalProperties: false,
} as const;

export const BillersResponseSchema = {
  $id: 'BillersResponse',
  type: 'object',
  properties: { billers: { type: 'array', items: { $ref: 'Biller#' } } },
  required: ['billers'],
  additionalProperties: false,
} as const;

export const BillerUpdatedResponseSchema = {
  $id: 'BillerUpdatedResponse',
  type: 'object',
  properties: { message: str, biller: { $ref: 'Biller#' }, updatedTransactions: int, seq: SEQ_PROPERTY },
  required: ['message', 'biller', 'updatedTransactions', 'seq'],
  additionalProperties: false,
} as const;

export const GeneralLedgerResponseSchema = {
  $id: 'GeneralLedgerResponse',
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ledgerAccountId: str,
          name: str,
          coaId: int,
          type: str,
          openingBalance: num,
          debit: num,
          credit: num,
          closingBalance: num,
          yearEndClose: {
            type: 'number',
            description:
              "Retained Earnings: the part of the period's movement that is the virtual year-end close (net income of the fiscal years that ended in the period); 0 for other accounts.",
          },
        },
        required: ['ledgerAccountId', 'name', 'coaId', 'type', 'openingBalance', 'debit', 'credit', 'closingBalance', 'yearEndClose'],
        additionalProperties: false,
      },
    },
  },
  required: ['data'],
  additionalProperties: false,
} as const;

export const LedgerTransactionsResponseSchema = {
  $id: 'LedgerTransactionsResponse',
  type: 'object',
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        description: "A line of the account's ledger; page 1 starts with the opening-balance row.",
        properties: {
          id: nullableStr,
          dateTime: nullableStr,
          description: str,
          journalEntryId: nullableStr,
          transactionId: nullableStr,
          debit: num,
          credit: num,
          ledgerAmount: num,
          ledgerRunningBalance: num,
          isOpeningBalance: bool,
          sourceType: str,
          counterAccount: str,
          isYearEndClose: {
            type: 'boolean',
            description: "A virtual line of the Retained Earnings ledger: a closed fiscal year's net income, dated the year's last day (nothing is posted).",
          },
          bankAccountTransaction: {
            anyOf: [{ $ref: 'BankAccountTransaction#' }, { type: 'null' }],
            description: 'Only with fetchBankAccountTransaction=true; null on lines that book no bank transaction.',
          },
        },
        required: [
          'id',
          'dateTime',
          'description',
          'journalEntryId',
          'transactionId',
          'debit',
          'credit',
          'ledgerAmount',
          'ledgerRunningBalance',
          'isOpeningBalance',
          'isYearEndClose',
          'sourceType',
          'counterAccount',
        ],
        additionalProperties: false,
      },
    },
    meta: { $ref: 'PageMeta#' },
    openingBalance: num,
  },
  required: ['data', 'meta', 'openingBalance'],
  additionalProperties: false,
} as const;

export const TransferCandidatesResponseSchema = {
  $id: 'TransferCandidatesResponse',
  type: 'object',
  description: "A transaction's possible transfer counterparts, best first (at most 10). score 0-100: detection pairs by itself at 60 or more.",
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: str, amount: num, dateTime: str, accountId: str, accountName: str, name: str, score: int },
        required: ['id', 'amount', 'dateTime', 'accountId', 'accountName', 'name', 'score'],
        additionalProperties: false,
      },
    },
  },
  required: ['data'],
  additionalProperties: false,
} as const;

export const PairTransferBodySchema = {
  $id: 'PairTransferBody',
  type: 'object',
  properties: { transactionId: { type: 'string', maxLength: 100 }, counterpartTransactionId: { type: 'string', maxLength: 100 } },
  additionalProperties: false,
} as const;

export const UnpairTransferBodySchema = {
  $id: 'UnpairTransferBody',
  type: 'object',
  properties: { transactionId: { type: 'string', maxLength: 100 } },
  additionalProperties: false,
} as const;

// ── Opening balances (GET, PUT, DELETE /categories/{id}/opening-balance). Money is decimal dollars at this edge, in the
// account's normal direction (a bank account's positive balance is money in it; a loan's is money owed). ──

/**
 * REST shapes of opening balances. Money is decimal dollars at this edge, in the account's normal
 * direction (a bank account's positive balance is money in it; a loan's is money owed).
 */
export const OpeningBalanceSchema = {
  $id: 'OpeningBalance',
  type: 'object',
  description: "A balance-sheet account's opening balance: an OpeningBalance entry against Opening Balance Equity.",
  properties: {
    categoryId: { type: 'string' },
    openingBalance: { type: 'number', description: "Dollars, in the account's normal direction." },
    openingBalanceDate: { type: 'string', description: 'YYYY-MM-DD: the entry is dated this day.' },
    journalEntryId: { type: 'string' },
    seq: { type: 'integer', description: "The ledger's commit sequence of the entry (reports wait for it)." },
  },
  required: ['categoryId', 'openingBalance', 'openingBalanceDate', 'journalEntryId', 'seq'],
  additionalProperties: false,
} as const;

export const OpeningBalanceBodySchema = {
  $id: 'OpeningBalanceBody',
  type: 'object',
  properties: {
    openingBalance: { type: 'number', description: "Dollars (2 decimals), in the account's normal direction; 0 removes it." },
    openingBalanceDate: { type: 'string', maxLength: 100, description: 'YYYY-MM-DD.' },
  },
  additionalProperties: false,
} as const;

export const OpeningBalanceResponseSchema = {
  $id: 'OpeningBalanceResponse',
  type: 'object',
  properties: { openingBalance: { anyOf: [{ $ref: 'OpeningBalance#' }, { type: 'null' }] } },
  required: ['openingBalance'],
  additionalProperties: false,
} as const;

export const OpeningBalanceChangedSchema = {
  $id: 'OpeningBalanceChanged',
  type: 'object',
  description: 'The opening balance as set (null when an amount of 0 removed it), a message to show and the change’s seq.',
  properties: { message: { type: 'string' }, openingBalance: { anyOf: [{ $ref: 'OpeningBalance#' }, { type: 'null' }] }, seq: SEQ_PROPERTY },
  required: ['message', 'openingBalance', 'seq'],
  additionalProperties: false,
} as const;

export const OpeningBalanceRemovedSchema = {
  $id: 'OpeningBalanceRemoved',
  type: 'object',
  properties: { message: { type: 'string' }, seq: SEQ_PROPERTY },
  required: ['message', 'seq'],
  additionalProperties: false,
} as const;

// ── Accruals (spec §3 "Accrual", §7) ──

const field = { type: 'string', maxLength: 100 } as const;
const accrualFields = { transactionId: field, accrualStartDate: field, accrualEndDate: field, accrualCategory: field, recogniseCategoryId: field } as const;

export const AccrualScheduleSchema = {
  $id: 'AccrualSchedule',
  type: 'object',
  description:
    "An accrued transaction's schedule: every month is in the books, dated in its month; runningBalance is what is left in Prepaid Expenses / Deferred Revenue after the month.",
  properties: {
    transactionId: str,
    accrualStartDate: str,
    accrualEndDate: str,
    accrualCategory: { type: 'string', enum: ['Prepaid Expenses', 'Deferred Revenue'] },
    accrualCategoryId: str,
    recogniseCategoryId: str,
    recogniseCategoryName: str,
    accrualStatus: { type: 'string', enum: ['active', 'stopped'] },
    stoppedOn: { type: ['string', 'null'] },
    amount: { type: 'number', description: "The transaction's absolute amount." },
    accruedChildren: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: str,
          accrualAmount: num,
          accrualCategory: str,
          accrualDateTime: {
            type: 'string',
            description: "The recognition date: the month's last day, the end date for the last month, the stop date for what a stop recognised at once.",
          },
          isTransactionAdded: { type: 'boolean', description: 'Recognised as of today.' },
          runningBalance: num,
          journalEntryId: str,
        },
        required: ['id', 'accrualAmount', 'accrualCategory', 'accrualDateTime', 'isTransactionAdded', 'runningBalance', 'journalEntryId'],
        additionalProperties: false,
      },
    },
  },
  required: [
    'transactionId',
    'accrualStartDate',
    'accrualEndDate',
    'accrualCategory',
    'accrualCategoryId',
    'recogniseCategoryId',
    'recogniseCategoryName',
    'accrualStatus',
    'stoppedOn',
    'amount',
    'accruedChildren',
  ],
  additionalProperties: false,
} as const;

export const CreateAccrualBodySchema = {
  $id: 'CreateAccrualBody',
  type: 'object',
  description: 'Spec §3 "Accrual": Prepaid Expenses for money out, Deferred Revenue for money in; dates YYYY-MM-DD.',
  properties: accrualFields,
  additionalProperties: false,
} as const;

export const UpdateAccrualBodySchema = {
  $id: 'UpdateAccrualBody',
  type: 'object',
  description:
    'Absent fields keep their value. New dates spread the amount evenly again (send no month amounts with them); updatedAccrualChildren (month id, amount in dollars) must add up to the transaction within 0.01.',
  properties: {
    ...accrualFields,
    updatedAccrualChildren: { type: 'array', maxItems: 120, items: { type: 'object', properties: { id: field, amount: num }, additionalProperties: false } },
  },
  additionalProperties: false,
} as const;

export const AccrualResponseSchema = {
  $id: 'AccrualResponse',
  type: 'object',
  properties: { message: str, transaction: { $ref: 'Transaction#' }, schedule: { $ref: 'AccrualSchedule#' }, seq: SEQ_PROPERTY },
  required: ['message', 'transaction', 'schedule', 'seq'],
  additionalProperties: false,
} as const;

// ── The categorisation queue (GET /jobs/categorization) ──

export const CategorizationJobSchema = {
  $id: 'CategorizationJob',
  type: 'object',
  description:
    'A categorisation job (spec §3 Job, queue categorization): waiting until the learned categorisation has answered, then completed. ' +
    'data.totalTransactions: the new transactions it was asked about; data.transactionPushed: those answered; applied: categorised with creation mode auto; suggested: shown as a suggestion.',
  properties: {
    id: str,
    status: { type: 'string', enum: ['waiting', 'active', 'completed', 'failed'] },
    type: { type: 'string', enum: ['categorization'] },
    order: int,
    data: {
      type: 'object',
      properties: { requestId: str, accountId: nullableStr, transactionPushed: int, totalTransactions: int, uploadType: nullableStr },
      required: ['requestId', 'accountId', 'transactionPushed', 'totalTransactions', 'uploadType'],
      additionalProperties: false,
    },
    applied: int,
    suggested: int,
    failedReason: nullableStr,
    attempts: int,
    createdOn: str,
    finishedOn: nullableStr,
  },
  required: ['id', 'status', 'type', 'order', 'data', 'applied', 'suggested', 'failedReason', 'attempts', 'createdOn', 'finishedOn'],
  additionalProperties: false,
} as const;

export const CategorizationJobsResponseSchema = {
  $id: 'CategorizationJobsResponse',
  type: 'object',
  properties: {
    jobs: { type: 'array', items: ref(CategorizationJobSchema), description: 'Newest first, at most 100.' },
    transactions: {
      type: 'array',
      description: 'For each id of `transactions` of this workspace: categorizing while its job waits, else categorized (spec §3 "Category state").',
      items: {
        type: 'object',
        properties: { id: str, categoryState: { type: 'string', enum: ['categorized', 'categorizing'] } },
        required: ['id', 'categoryState'],
        additionalProperties: false,
      },
    },
  },
  required: ['jobs', 'transactions'],
  additionalProperties: false,
} as const;

// ── GET /transactions/v2's filters (spec §7), shared by the list and its CSV export ──

const filterText = { type: 'string', maxLength: 4000 } as const;

/** The filters of GET /transactions/v2 without paging (GET /transactions/csv holds every page). */
export const TRANSACTION_FILTERS = {
  type: 'object',
  properties: {
    accountId: filterText,
    startDate: filterText,
    endDate: filterText,
    billers: filterText,
    categories: filterText,
    description: filterText,
    amount: { type: 'number' },
    minAmount: { type: 'number' },
    maxAmount: { type: 'number' },
    flow: filterText,
    finalization: filterText,
    order: filterText,
    transferStatus: { ...filterText, description: 'review (one-sided transfers: "Transfers to review") or paired.' },
  },
} as const;

/** GET /transactions/v2's query: the filters, a page and its size. */
export const TRANSACTION_LIST_QUERY = {
  type: 'object',
  properties: { ...TRANSACTION_FILTERS.properties, page: { type: 'integer' }, take: { type: 'integer' } },
} as const;

export interface TransactionFiltersQuery {
  accountId?: string;
  startDate?: string;
  endDate?: string;
  billers?: string;
  categories?: string;
  description?: string;
  amount?: number;
  minAmount?: number;
  maxAmount?: number;
  flow?: string;
  finalization?: string;
  order?: string;
  transferStatus?: string;
}

export const LEDGER_SCHEMAS = [
  ChartChangedResponseSchema,
  FiscalYearSchema,
  FiscalYearChangedSchema,
  FiscalYearBodySchema,
  LedgerPageMetaSchema,
  CategorySchema,
  AccountTreeNodeSchema,
  CategoriesResponseSchema,
  ChartOfAccountsResponseSchema,
  CreateCategoryBodySchema,
  CategoryResponseSchema,
  GroupsAndTagsResponseSchema,
  UpdateCategoryBodySchema,
  MoveCategoryBodySchema,
  DeleteCategoriesBodySchema,
  BillerSchema,
  BankAccountTransactionSchema,
  TransactionSchema,
  TransactionsPageSchema,
  TransactionUpdatedResponseSchema,
  TransactionsUpdatedResponseSchema,
  CategoryIdBodySchema,
  BulkUpdateBodySchema,
  FinalizeBodySchema,
  SplitBodySchema,
  UpdateSplitBodySchema,
  AuditLogsResponseSchema,
  BillersResponseSchema,
  BillerUpdatedResponseSchema,
  GeneralLedgerResponseSchema,
  LedgerTransactionsResponseSchema,
  TransferCandidatesResponseSchema,
  PairTransferBodySchema,
  UnpairTransferBodySchema,
] as const;
