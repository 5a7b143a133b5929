import { uuid } from '../http/schemas.js';

/**
 * REST shapes of the banking routes (spec §3 Bank account, Bank account link, Account merge, Job). Like
 * schemas.ts: bodies check types and shape only (banking names missing fields with the spec's messages),
 * ids are checked as UUIDs here so a malformed one is a 400 naming the field before any call.
 */
const str = (maxLength: number, description?: string) =>
  description ? ({ type: 'string', maxLength, description } as const) : ({ type: 'string', maxLength } as const);
const nullableString = { type: ['string', 'null'] } as const;
const money = { type: ['number', 'null'], description: 'Decimal amount with 2 places (USD, en-US).' } as const;

export const BankAccountSchema = {
  $id: 'BankAccount',
  type: 'object',
  description: 'A linked bank or card account (spec §3 Bank account). Balances are decimal numbers with 2 places.',
  properties: {
    id: uuid,
    name: { type: 'string' },
    institution: {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' }, logo: nullableString },
      required: ['id', 'name', 'logo'],
      additionalProperties: false,
    },
    workspace: uuid,
    mask: { type: 'string' },
    vendorAccountId: { type: 'string' },
    type: { type: 'string', description: 'depository or credit (credit cards are credit).' },
    subtype: { type: 'string', description: 'checking, savings, credit card, ...' },
    active: { type: 'boolean' },
    reconnectRequired: { type: 'boolean' },
    availableBalance: money,
    currentBalance: money,
    isoCurrencyCode: { type: 'string' },
    lastSyncedAt: { ...nullableString, description: 'ISO-8601 instant of the last completed sync.' },
    dateStartAt: { ...nullableString, description: 'Date (YYYY-MM-DD) of the first stored transaction.' },
    dateEndAt: { ...nullableString, description: 'Date (YYYY-MM-DD) of the last stored transaction.' },
    createdOn: { type: 'string' },
    source: { type: 'string', enum: ['quickbook', 'plaid', 'quickbook-plaid'] },
  },
  required: [
    'id',
    'name',
    'institution',
    'workspace',
    'mask',
    'vendorAccountId',
    'type',
    'subtype',
    'active',
    'reconnectRequired',
    'availableBalance',
    'currentBalance',
    'isoCurrencyCode',
    'lastSyncedAt',
    'dateStartAt',
    'dateEndAt',
    'createdOn',
    'source',
  ],
  additionalProperties: false,
} as const;

export const JobSchema = {
  $id: 'Job',
  type: 'object',
  description: 'A queue job (spec §3 Job). In progress while waiting, delayed or active.',
  properties: {
    id: uuid,
    status: { type: 'string', enum: ['waiting', 'delayed', 'active', 'completed', 'failed'] },
    type: {
      type: 'string',
      description:
        'The queue: transaction-sync, or bulk upload (the documents service: data.transactionPushed of data.totalTransactions files read, data.uploadType bill, invoice or receipt; accountId empty).',
    },
    order: { type: 'integer' },
    data: {
      type: 'object',
      properties: {
        requestId: { type: 'string' },
        accountId: uuid,
        transactionPushed: { type: 'integer' },
        totalTransactions: { type: 'integer' },
        uploadType: nullableString,
      },
      required: ['requestId', 'accountId', 'transactionPushed', 'totalTransactions', 'uploadType'],
      additionalProperties: false,
    },
    failedReason: nullableString,
    attempts: { type: 'integer' },
    createdOn: { type: 'string' },
    finishedOn: nullableString,
  },
  required: ['id', 'status', 'type', 'order', 'data', 'failedReason', 'attempts', 'createdOn', 'finishedOn'],
  additionalProperties: false,
} as const;

export const BankTransactionSchema = {
  $id: 'BankTransaction',
  type: 'object',
  description: 'A raw bank transaction as received from the bank feed. amount > 0 is money into the account.',
  properties: {
    id: uuid,
    accountId: uuid,
    externalId: { type: 'string' },
    amount: { type: 'number' },
    isoCurrencyCode: { type: 'string' },
    date: { type: 'string' },
    authorizedDate: nullableString,
    name: { type: 'string' },
    merchantName: { type: 'string' },
    pending: { type: 'boolean' },
    providerCategory: { type: 'string' },
    version: { type: 'integer' },
  },
  required: [
    'id',
    'accountId',
    'externalId',
    'amount',
    'isoCurrencyCode',
    'date',
    'authorizedDate',
    'name',
    'merchantName',
    'pending',
    'providerCategory',
    'version',
  ],
  additionalProperties: false,
} as const;

export const LinkTokenResponseSchema = {
  $id: 'LinkTokenResponse',
  type: 'object',
  description: 'A Plaid Link token for the client to open Link with.',
  properties: { linkToken: { type: 'string' }, expiration: { type: 'string' } },
  required: ['linkToken', 'expiration'],
  additionalProperties: false,
} as const;

export const LinkAccountsBodySchema = {
  $id: 'LinkAccountsBody',
  type: 'object',
  description: 'Spec §3 Bank account link: what Plaid Link returned.',
  properties: {
    publicToken: str(1024),
    accounts: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        properties: { id: str(256, "The provider's account id."), name: str(256), mask: str(16), type: str(64), subtype: str(64) },
        additionalProperties: false,
      },
    },
    institution: {
      type: ['object', 'null'],
      properties: { name: str(256), institution_id: str(256) },
      additionalProperties: false,
    },
    ignoreDuplicateAccounts: { type: 'boolean' },
    coupon: str(100),
  },
  additionalProperties: false,
} as const;

export const LinkAccountsResponseSchema = {
  $id: 'LinkAccountsResponse',
  type: 'object',
  description:
    'The linked accounts and their first sync job; or, when accounts of the link are already linked and ignoreDuplicateAccounts was false, resultCode duplicate_account with the matching accounts and nothing linked.',
  properties: {
    accounts: { type: 'array', items: { $ref: 'BankAccount#' } },
    resultCode: { type: ['string', 'null'], enum: ['duplicate_account', null] },
    matchingAccounts: { type: 'array', items: { $ref: 'BankAccount#' } },
    jobs: { type: 'array', items: { $ref: 'Job#' } },
  },
  required: ['accounts', 'resultCode', 'matchingAccounts', 'jobs'],
  additionalProperties: false,
} as const;

const TIE_OUT_STATUSES = ['matches', 'differs', 'catching_up', 'currency', 'unknown'] as const;

export const AccountTieOutSchema = {
  $id: 'AccountTieOut',
  type: 'object',
  description:
    "The account in the books beside the bank (issue #12). Amounts are decimal numbers with 2 places in the account's normal direction: money held for a bank account, the amount owed for a card. " +
    'status: matches (books = bank to the cent), differs, catching_up (the books have not yet booked every transaction of the last sync), currency (not USD: not compared with the USD books), unknown (no completed sync yet, or the bank reported no balance).',
  properties: {
    status: { type: 'string', enum: TIE_OUT_STATUSES },
    bankBalance: { type: 'number', description: "The bank's current balance at asOf (in the account's own currency for status currency; 0 when unknown)." },
    booksBalance: { type: 'number', description: "The ledger account's balance over all its lines, less transactions still pending." },
    pendingAmount: { type: 'number', description: 'Pending bank transactions of the account held in the books (not in booksBalance).' },
    difference: { type: 'number', description: 'booksBalance − bankBalance; 0 when status is currency or unknown (nothing compared).' },
    asOf: { ...nullableString, description: 'ISO-8601 instant of the sync the bank balance comes from; null before the first completed sync.' },
    ledgerAccountId: { ...uuid, description: 'The ledger account (category) that books the account: its general ledger and opening balance.' },
  },
  required: ['status', 'bankBalance', 'booksBalance', 'pendingAmount', 'difference', 'asOf', 'ledgerAccountId'],
  additionalProperties: false,
} as const;

/** GET /accounts: every field of BankAccount plus its tie-out. */
export const ListedBankAccountSchema = {
  ...BankAccountSchema,
  $id: 'ListedBankAccount',
  description: 'A linked bank or card account (spec §3 Bank account) with its tie-out against the books.',
  properties: {
    ...BankAccountSchema.properties,
    tieOut: {
      anyOf: [{ $ref: 'AccountTieOut#' }, { type: 'null' }],
      description: 'Null when the ledger has nothing for the account (not booked yet, or the ledger did not answer).',
    },
  },
  required: [...BankAccountSchema.required, 'tieOut'],
} as const;

export const AccountsTieOutSummarySchema = {
  $id: 'AccountsTieOutSummary',
  type: 'object',
  description:
    'The bank and card accounts (USD, with a bank balance) summed as cash: bank accounts count as money held, cards as negative (owed). status: unknown when no account is included, ' +
    'catching_up when any included account is, else differs when any differs, else matches.',
  properties: {
    bankTotal: { type: 'number' },
    booksTotal: { type: 'number' },
    difference: { type: 'number', description: 'booksTotal − bankTotal.' },
    status: { type: 'string', enum: ['matches', 'differs', 'catching_up', 'unknown'] },
  },
  required: ['bankTotal', 'booksTotal', 'difference', 'status'],
  additionalProperties: false,
} as const;

export const AccountsResponseSchema = {
  $id: 'AccountsResponse',
  type: 'object',
  properties: {
    accounts: { type: 'array', items: { $ref: 'ListedBankAccount#' } },
    tieOut: { anyOf: [{ $ref: 'AccountsTieOutSummary#' }, { type: 'null' }], description: 'Null when the ledger did not answer.' },
  },
  required: ['accounts', 'tieOut'],
  additionalProperties: false,
} as const;

const matchedPair = {
  type: 'object',
  properties: { sourceTransactionId: uuid, targetTransactionId: uuid, date: { type: 'string' }, amount: { type: 'number' } },
  required: ['sourceTransactionId', 'targetTransactionId', 'date', 'amount'],
  additionalProperties: false,
} as const;

export const DuplicateMatchSchema = {
  $id: 'DuplicateMatch',
  type: 'object',
  description: 'An account that looks like the same real account as another (same institution, mask and kind), with the transactions they share.',
  properties: {
    account: { $ref: 'BankAccount#' },
    matchingAccount: { $ref: 'BankAccount#' },
    overlappingTransactions: { type: 'integer', description: "Transactions of `account` dated inside the matching account's date range." },
    matchedTransactions: { type: 'integer', description: 'Overlapping transactions with a counterpart of the same date and amount.' },
    matchPercentage: { type: 'number' },
    matched: { type: 'array', items: matchedPair },
  },
  required: ['account', 'matchingAccount', 'overlappingTransactions', 'matchedTransactions', 'matchPercentage', 'matched'],
  additionalProperties: false,
} as const;

export const CheckAnomalyResponseSchema = {
  $id: 'CheckAnomalyResponse',
  type: 'object',
  description: 'The duplicate-account check. The top-level figures are those of the first match; resultCode is duplicate_account when any match exists.',
  properties: {
    resultCode: { type: ['string', 'null'], enum: ['duplicate_account', null] },
    matchingAccounts: { type: 'array', items: { $ref: 'BankAccount#' } },
    overlappingTransactions: { type: 'integer' },
    matchedTransactions: { type: 'integer' },
    matchPercentage: { type: 'number' },
    matches: { type: 'array', items: { $ref: 'DuplicateMatch#' } },
  },
  required: ['resultCode', 'matchingAccounts', 'overlappingTransactions', 'matchedTransactions', 'matchPercentage', 'matches'],
  additionalProperties: false,
} as const;

export const AccountIdBodySchema = {
  $id: 'AccountIdBody',
  type: 'object',
  properties: { accountId: uuid },
  additionalProperties: false,
} as const;

export const SyncResponseSchema = {
  $id: 'SyncResponse',
  type: 'object',
  properties: { message: { type: 'string' }, job: { $ref: 'Job#' } },
  required: ['message', 'job'],
  additionalProperties: false,
} as const;

export const MergeBodySchema = {
  $id: 'MergeBody',
  type: 'object',
  description: "Spec §3 Account merge: the source account's transactions go into the target, which carries on with the source's bank feed.",
  properties: {
    sourceAccountId: uuid,
    targetAccountId: uuid,
    conflicts: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        properties: { sourceTransactionId: uuid, targetTransactionId: uuid, resolution: { type: 'string', enum: ['keep_target', 'keep_both', 'keep_source'] } },
        additionalProperties: false,
      },
    },
    keepTargetsNonMatchedTransactions: { type: 'boolean', description: 'Default true.' },
    mergeStrategy: { type: 'string', enum: ['forward-only-merge', 'complete-merge'], description: 'Default forward-only-merge.' },
  },
  additionalProperties: false,
} as const;

export const MergeResponseSchema = {
  $id: 'MergeResponse',
  type: 'object',
  properties: {
    message: { type: 'string' },
    targetAccount: { $ref: 'BankAccount#' },
    movedTransactions: { type: 'integer' },
    droppedTransactions: { type: 'integer' },
    removedTargetTransactions: { type: 'integer' },
  },
  required: ['message', 'targetAccount', 'movedTransactions', 'droppedTransactions', 'removedTargetTransactions'],
  additionalProperties: false,
} as const;

export const JobsResponseSchema = {
  $id: 'JobsResponse',
  type: 'object',
  properties: { jobs: { type: 'array', items: { $ref: 'Job#' } } },
  required: ['jobs'],
  additionalProperties: false,
} as const;

export const BankTransactionsResponseSchema = {
  $id: 'BankTransactionsResponse',
  type: 'object',
  properties: {
    data: { type: 'array', items: { $ref: 'BankTransaction#' } },
    meta: {
      type: 'object',
      properties: { page: { type: 'integer' }, take: { type: 'integer' }, total: { type: 'integer' } },
      required: ['page', 'take', 'total'],
      additionalProperties: false,
    },
  },
  required: ['data', 'meta'],
  additionalProperties: false,
} as const;

export const WebhookResponseSchema = {
  $id: 'PlaidWebhookResponse',
  type: 'object',
  properties: { outcome: { type: 'string', enum: ['sync_enqueued', 'reconnect_required', 'duplicate', 'ignored'] } },
  required: ['outcome'],
  additionalProperties: false,
} as const;

export const BANKING_SCHEMAS = [
  BankAccountSchema,
  JobSchema,
  BankTransactionSchema,
  LinkTokenResponseSchema,
  LinkAccountsBodySchema,
  LinkAccountsResponseSchema,
  AccountTieOutSchema,
  ListedBankAccountSchema,
  AccountsTieOutSummarySchema,
  AccountsResponseSchema,
  DuplicateMatchSchema,
  CheckAnomalyResponseSchema,
  AccountIdBodySchema,
  SyncResponseSchema,
  MergeBodySchema,
  MergeResponseSchema,
  JobsResponseSchema,
  BankTransactionsResponseSchema,
  WebhookResponseSchema,
] as const;

export interface LinkBody {
  publicToken?: string;
  accounts?: { id?: string; name?: string; mask?: string; type?: string; subtype?: string }[];
  institution?: { name?: string; institution_id?: string } | null;
  ignoreDuplicateAccounts?: boolean;
  coupon?: string;
}

export interface MergeBody {
  sourceAccountId?: string;
  targetAccountId?: string;
  conflicts?: { sourceTransactionId?: string; targetTransactionId?: string; resolution?: string }[];
  keepTargetsNonMatchedTransactions?: boolean;
  mergeStrategy?: string;
}
