import type { Client } from '@connectrpc/connect';
import type { BankAccount, BankingService, Job } from '@ledgerline/proto/banking/v1/banking_pb';
import type { FastifyInstance } from 'fastify';
import { authOf } from '../http/auth.js';
import {
  AccountIdBodySchema,
  AccountsResponseSchema,
  BANKING_SCHEMAS,
  BankTransactionsResponseSchema,
  CheckAnomalyResponseSchema,
  JobsResponseSchema,
  LinkAccountsBodySchema,
  LinkAccountsResponseSchema,
  LinkTokenResponseSchema,
  MergeBodySchema,
  MergeResponseSchema,
  SyncResponseSchema,
  WebhookResponseSchema,
} from '../http/banking-schemas.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../http/schemas.js';

export type BankingClient = Client<typeof BankingService>;

const BEARER = [{ bearerAuth: [] }] as const;
const TAGS = ['banking'] as const;
/** Viewers read; every write needs a role above Viewer (spec §6). */
const READ = { auth: { workspace: 'required' as const } };
const WRITE = { auth: { minRole: 'Admin' as const } };
const uuid = { type: 'string', format: 'uuid' } as const;

const cents = (v: bigint | undefined) => (v === undefined ? null : Number(v) / 100);
const orNull = (s: string) => (s === '' ? null : s);

export function bankAccountJson(a: BankAccount) {
  return {
    id: a.id,
    name: a.name,
    institution: { id: a.institutionId, name: a.institutionName, logo: orNull(a.institutionLogo) },
    workspace: a.workspaceId,
    mask: a.mask,
    vendorAccountId: a.vendorAccountId,
    type: a.type,
    subtype: a.subtype,
    active: a.active,
    reconnectRequired: a.reconnectRequired,
    availableBalance: cents(a.availableBalanceCents),
    currentBalance: cents(a.currentBalanceCents),
    isoCurrencyCode: a.isoCurrencyCode,
    lastSyncedAt: orNull(a.lastSyncedAt),
    dateStartAt: orNull(a.dateStartAt),
    dateEndAt: orNull(a.dateEndAt),
    createdOn: a.createdOn,
    source: a.source,
  };
}

export function jobJson(j: Job | undefined) {
  if (!j) throw new Error('banking answered without a job');
  return {
    id: j.id,
    status: j.status,
    type: j.type,
    order: Number(j.order),
    data: {
      requestId: j.data?.requestId ?? '',
      accountId: j.data?.accountId ?? '',
      transactionPushed: j.data?.transactionPushed ?? 0,
      totalTransactions: j.data?.totalTransactions ?? 0,
      uploadType: orNull(j.data?.uploadType ?? ''),
    },
    failedReason: orNull(j.failedReason),
    attempts: j.attempts,
    createdOn: j.createdOn,
    finishedOn: orNull(j.finishedOn),
  };
}

interface LinkBody {
  publicToken?: string;
  accounts?: { id?: string; name?: string; mask?: string; type?: string; subtype?: string }[];
  institution?: { name?: string; institution_id?: string } | null;
  ignoreDuplicateAccounts?: boolean;
  coupon?: string;
}

interface MergeBody {
  sourceAccountId?: string;
  targetAccountId?: string;
  conflicts?: { sourceTransactionId?: string; targetTransactionId?: string; resolution?: string }[];
  keepTargetsNonMatchedTransactions?: boolean;
  mergeStrategy?: string;
}

/**
 * Spec §7 "Accounts", POST /transactions/sync, POST /transactions/merge and GET /jobs, each one
 * BankingService RPC; GET /bank-transactions (raw transactions until the ledger serves them); and
 * POST /plaid/webhook, whose raw body bytes go to banking untouched (their SHA-256 is signed).
 */
export async function registerBankingRoutes(app: FastifyInstance, { banking }: { banking: BankingClient }): Promise<void> {
  for (const schema of BANKING_SCHEMAS) app.addSchema(schema);
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });

  app.post(
    '/plaid/link-token',
    { config: WRITE, schema: { operationId: 'createLinkToken', summary: 'A Plaid Link token to link a bank', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, response: responses(200, ref(LinkTokenResponseSchema)) } },
    async (req) => banking.createLinkToken({}, headers(req)),
  );

  app.post<{ Body: { accountId?: string } }>(
    '/plaid/update-token',
    { config: WRITE, schema: { operationId: 'createUpdateToken', summary: 'A Plaid Link token in update mode, to reconnect an account', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, body: ref(AccountIdBodySchema), response: responses(200, ref(LinkTokenResponseSchema)) } },
    async (req) => banking.createUpdateToken({ accountId: req.body.accountId }, headers(req)),
  );

  app.post<{ Body: LinkBody }>(
    '/accounts',
    { config: WRITE, schema: { operationId: 'linkAccounts', summary: 'Link the accounts of a Plaid Link session; their transactions sync in a job', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, body: ref(LinkAccountsBodySchema), response: responses(200, ref(LinkAccountsResponseSchema)) } },
    async (req) => {
      const b = req.body;
      const r = await banking.linkAccounts(
        {
          publicToken: b.publicToken,
          accounts: (b.accounts ?? []).map((a) => ({ id: a.id ?? '', name: a.name ?? '', mask: a.mask ?? '', type: a.type ?? '', subtype: a.subtype ?? '' })),
          institution: b.institution ? { name: b.institution.name ?? '', institutionId: b.institution.institution_id ?? '' } : undefined,
          ignoreDuplicateAccounts: b.ignoreDuplicateAccounts ?? false,
          coupon: b.coupon ?? '',
        },
        headers(req),
      );
      return { accounts: r.accounts.map(bankAccountJson), resultCode: orNull(r.resultCode), matchingAccounts: r.matchingAccounts.map(bankAccountJson), jobs: r.jobs.map(jobJson) };
    },
  );

  app.get(
    '/accounts',
    { config: READ, schema: { operationId: 'listAccounts', summary: 'The workspace\'s linked accounts', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, response: responses(200, ref(AccountsResponseSchema)) } },
    async (req) => ({ accounts: (await banking.listAccounts({}, headers(req))).accounts.map(bankAccountJson) }),
  );

  app.get<{ Querystring: { accountId?: string } }>(
    '/accounts/check-anomaly',
    {
      config: READ,
      schema: {
        operationId: 'checkAnomaly', summary: 'Duplicate-account check', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA,
        querystring: { type: 'object', properties: { accountId: uuid }, additionalProperties: false },
        response: responses(200, ref(CheckAnomalyResponseSchema)),
      },
    },
    async (req) => {
      const r = await banking.checkAnomaly({ accountId: req.query.accountId }, headers(req));
      const matches = r.matches.map((m) => ({
        account: bankAccountJson(m.account!),
        matchingAccount: bankAccountJson(m.matchingAccount!),
        overlappingTransactions: m.overlappingTransactions,
        matchedTransactions: m.matchedTransactions,
        matchPercentage: m.matchPercentage,
        matched: m.matched.map((p) => ({ sourceTransactionId: p.sourceTransactionId, targetTransactionId: p.targetTransactionId, date: p.date, amount: Number(p.amountCents) / 100 })),
      }));
      const first = matches[0];
      return {
        resultCode: orNull(r.resultCode),
        matchingAccounts: matches.map((m) => m.matchingAccount),
        overlappingTransactions: first?.overlappingTransactions ?? 0,
        matchedTransactions: first?.matchedTransactions ?? 0,
        matchPercentage: first?.matchPercentage ?? 0,
        matches,
      };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/accounts/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'removeAccount', summary: 'Unlink an account (its transactions stay in the books)', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA,
        params: { type: 'object', properties: { id: uuid }, required: ['id'] },
        response: responses(200, { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false }),
      },
    },
    async (req) => banking.removeAccount({ accountId: req.params.id }, headers(req)),
  );

  app.post<{ Body: { accountId?: string } }>(
    '/transactions/sync',
    { config: WRITE, schema: { operationId: 'syncTransactions', summary: 'Sync the account\'s bank feed now (a job)', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, body: ref(AccountIdBodySchema), response: responses(200, ref(SyncResponseSchema)) } },
    async (req) => {
      const r = await banking.syncTransactions({ accountId: req.body.accountId }, headers(req));
      return { message: r.message, job: jobJson(r.job) };
    },
  );

  app.post<{ Body: MergeBody }>(
    '/transactions/merge',
    { config: WRITE, schema: { operationId: 'mergeAccounts', summary: 'Merge a duplicate account into another', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, body: ref(MergeBodySchema), response: responses(200, ref(MergeResponseSchema)) } },
    async (req) => {
      const b = req.body;
      const r = await banking.mergeAccounts(
        {
          sourceAccountId: b.sourceAccountId,
          targetAccountId: b.targetAccountId,
          conflicts: (b.conflicts ?? []).map((c) => ({ sourceTransactionId: c.sourceTransactionId, targetTransactionId: c.targetTransactionId, resolution: c.resolution })),
          keepTargetsNonMatchedTransactions: b.keepTargetsNonMatchedTransactions,
          mergeStrategy: b.mergeStrategy,
        },
        headers(req),
      );
      return { message: r.message, targetAccount: bankAccountJson(r.targetAccount!), movedTransactions: r.movedTransactions, droppedTransactions: r.droppedTransactions, removedTargetTransactions: r.removedTargetTransactions };
    },
  );

  app.get<{ Querystring: { accountId?: string; status?: string } }>(
    '/jobs',
    {
      config: READ,
      schema: {
        operationId: 'listJobs', summary: 'Queue jobs (bank sync) and their progress', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA,
        querystring: {
          type: 'object',
          properties: {
            accountId: uuid,
            status: { type: 'string', maxLength: 200, pattern: '^(waiting|waiting-children|active|completed|failed|paused|repeat|wait|delayed|prioritized)(,(waiting|waiting-children|active|completed|failed|paused|repeat|wait|delayed|prioritized))*$', description: 'Comma-separated queue statuses.' },
          },
          additionalProperties: false,
        },
        response: responses(200, ref(JobsResponseSchema)),
      },
    },
    async (req) => {
      const statuses = (req.query.status ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
      const r = await banking.listJobs({ accountId: req.query.accountId, statuses }, headers(req));
      return { jobs: r.jobs.map(jobJson) };
    },
  );

  app.get<{ Querystring: { accountId?: string; page?: number; take?: number } }>(
    '/bank-transactions',
    {
      config: READ,
      schema: {
        operationId: 'listBankTransactions', summary: 'Raw bank transactions as received from the feed (newest first)', tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA,
        querystring: {
          type: 'object',
          properties: { accountId: uuid, page: { type: 'integer', minimum: 1, default: 1 }, take: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          additionalProperties: false,
        },
        response: responses(200, ref(BankTransactionsResponseSchema)),
      },
    },
    async (req) => {
      const r = await banking.listBankTransactions({ accountId: req.query.accountId, page: req.query.page ?? 1, take: req.query.take ?? 20 }, headers(req));
      return {
        data: r.transactions.map((t) => ({
          id: t.id, accountId: t.accountId, externalId: t.externalId, amount: Number(t.amountCents) / 100, isoCurrencyCode: t.isoCurrencyCode, date: t.date,
          authorizedDate: orNull(t.authorizedDate), name: t.name, merchantName: t.merchantName, pending: t.pending, providerCategory: t.providerCategory, version: Number(t.version),
        })),
        meta: { page: r.page, take: r.take, total: r.total },
      };
    },
  );

  // Plaid calls this one: no session; banking verifies the Plaid-Verification JWT over the exact bytes.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post<{ Body: Buffer }>(
      '/plaid/webhook',
      {
        schema: {
          operationId: 'plaidWebhook', summary: 'Plaid webhooks (verified with the Plaid-Verification header; any failure is a 401)', tags: TAGS, security: [],
          headers: { type: 'object', properties: { 'plaid-verification': { type: 'string', description: 'ES256 JWT signed by Plaid over the SHA-256 of the body.' } } },
          response: responses(200, ref(WebhookResponseSchema)),
        },
      },
      async (req) => {
        const raw = req.headers['plaid-verification'];
        const verification = Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? '');
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return banking.handlePlaidWebhook({ body: new Uint8Array(body), verification });
      },
    );
  });
}
