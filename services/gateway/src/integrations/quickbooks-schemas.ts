import { str } from '../http/schemas.js';

/** The REST shapes of the /quickbook/* routes (documents-parties-integrations §3, §7), as JSON Schema. */
const instant = { type: 'string', description: 'ISO-8601 UTC instant; empty when not yet.' } as const;

export const QuickBooksIntegrationSchema = {
  $id: 'QuickBooksIntegration',
  type: 'object',
  description: "The workspace's accounting-package (QuickBooks Online) connection.",
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The connection.' },
    workspaceId: { type: 'string', format: 'uuid' },
    realmId: { type: 'string', description: "QuickBooks' company id." },
    companyName: str,
    connectedAt: instant,
    lastSyncedAt: instant,
    isReconnectRequired: { type: 'boolean', description: 'Intuit refused the refresh token: connect again.' },
    type: { type: 'string', enum: ['quickbooks'] },
  },
  required: ['id', 'workspaceId', 'realmId', 'companyName', 'connectedAt', 'lastSyncedAt', 'isReconnectRequired', 'type'],
  additionalProperties: false,
} as const;

export const QuickBooksOAuthLinkSchema = {
  $id: 'QuickBooksOAuthLink',
  type: 'object',
  description: "Intuit's authorize page; Intuit sends the user back to the app's redirect URI with code, state and realmId.",
  properties: { url: str, state: { type: 'string', description: 'The one-time state the link carries (10 minutes).' } },
  required: ['url', 'state'],
  additionalProperties: false,
} as const;

export const QuickBooksDisconnectResponseSchema = {
  $id: 'QuickBooksDisconnectResponse',
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' } },
  required: ['id'],
  additionalProperties: false,
} as const;

export const QuickBooksConnectBodySchema = {
  type: 'object',
  // Shape only (as every body, services/gateway/src/http/schemas.ts): the service owns the rules and their messages.
  properties: {
    code: { type: 'string', maxLength: 512, description: "The callback's authorization code." },
    state: { type: 'string', maxLength: 200, description: "The callback's state: the link's, used once." },
    realmId: { type: 'string', maxLength: 32, description: "The callback's realmId (the company consented to)." },
  },
  additionalProperties: false,
} as const;

const ids = { type: 'array', items: { type: 'string' } } as const;
const ENTITY_TYPES = ['account', 'vendor', 'customer', 'transaction'] as const;

export const QuickBooksUnsyncedEntitiesSchema = {
  $id: 'QuickBooksUnsyncedEntities',
  type: 'object',
  description: 'Per entity type, the ids QuickBooks lacks as they are now (never pushed, changed since, or failed).',
  properties: Object.fromEntries(ENTITY_TYPES.map((t) => [t, ids])),
  required: [...ENTITY_TYPES],
  additionalProperties: false,
} as const;

export const QuickBooksUnsyncedCountSchema = {
  $id: 'QuickBooksUnsyncedCount',
  type: 'object',
  description: 'Per entity type, how many entities QuickBooks lacks; total of them all.',
  properties: Object.fromEntries([...ENTITY_TYPES, 'total'].map((t) => [t, { type: 'integer' }])),
  required: [...ENTITY_TYPES, 'total'],
  additionalProperties: false,
} as const;

export const QuickBooksSyncJobSchema = {
  $id: 'QuickBooksSyncJob',
  type: 'object',
  description: "A job of the 'accounting-package sync' queue; done of total entities settled so far.",
  properties: {
    id: { type: 'string', format: 'uuid' },
    queue: str,
    kind: { type: 'string', enum: ['bulk', 'transactions'] },
    status: { type: 'string', enum: ['waiting', 'active', 'completed', 'failed'] },
    attempts: { type: 'integer' },
    total: { type: 'integer' },
    done: { type: 'integer' },
    error: str,
    createdAt: instant,
    startedAt: instant,
    finishedAt: instant,
  },
  required: ['id', 'queue', 'kind', 'status', 'attempts', 'total', 'done', 'error', 'createdAt', 'startedAt', 'finishedAt'],
  additionalProperties: false,
} as const;

const item = {
  type: 'object',
  properties: {
    id: str,
    source: { type: 'string', description: 'The entity type.' },
    message: { type: 'string', description: 'Why it failed or was ignored.' },
  },
  required: ['id', 'source', 'message'],
  additionalProperties: false,
} as const;
const resultLists = {
  synced: { type: 'array', items: item },
  unsynced: { type: 'array', items: item },
  syncFailed: { type: 'array', items: item },
  unsyncFailed: { type: 'array', items: item },
  ignored: { type: 'array', items: item },
};

export const QuickBooksSyncJobResultSchema = {
  $id: 'QuickBooksSyncJobResult',
  type: 'object',
  description: 'A sync job and its result lists (what it synced, un-synced, failed to sync or un-sync, ignored).',
  properties: { job: { $ref: 'QuickBooksSyncJob#' }, ...resultLists },
  required: ['job', 'synced', 'unsynced', 'syncFailed', 'unsyncFailed', 'ignored'],
  additionalProperties: false,
} as const;

export const QuickBooksTransactionsSyncSchema = {
  $id: 'QuickBooksTransactionsSync',
  type: 'object',
  description: 'The result lists of POST /transactions/qbo-sync.',
  properties: { jobId: { type: 'string', format: 'uuid' }, ...resultLists },
  required: ['jobId', 'synced', 'unsynced', 'syncFailed', 'unsyncFailed', 'ignored'],
  additionalProperties: false,
} as const;

export const QuickBooksTransactionsSyncBodySchema = {
  type: 'object',
  // Shape only: the service owns the rules and their messages.
  properties: {
    sync: { type: 'array', maxItems: 500, items: { type: 'string', maxLength: 36 }, description: 'Transactions to push to QuickBooks.' },
    unsync: { type: 'array', maxItems: 500, items: { type: 'string', maxLength: 36 }, description: 'Transactions to delete from QuickBooks (editable again).' },
  },
  additionalProperties: false,
} as const;

/** Registered before the routes (OpenAPI names them `#/components/schemas/<$id>`). */
export const QUICKBOOKS_SCHEMAS = [
  QuickBooksIntegrationSchema,
  QuickBooksOAuthLinkSchema,
  QuickBooksDisconnectResponseSchema,
  QuickBooksUnsyncedEntitiesSchema,
  QuickBooksUnsyncedCountSchema,
  QuickBooksSyncJobSchema,
  QuickBooksSyncJobResultSchema,
  QuickBooksTransactionsSyncSchema,
] as const;
