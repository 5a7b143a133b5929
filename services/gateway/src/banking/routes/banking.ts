import type { FastifyInstance } from 'fastify';
import { authOf, WRITE, READ } from '../../http/auth.js';
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
} from '../schemas.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA, BEARER, uuid } from '../../http/schemas.js';
import { addSchemas } from '../../http/hardening.js';
import { centsToDollars, orNull } from '@ledgerline/platform';
import { bulkUploadJobJson } from '../../documents/present.js';
import type { QuickBooksSyncClient } from '../../integrations/quickbooks-client.js';
import { quickBooksQueueJobJson } from '../../integrations/routes/quickbooks-sync.js';
import type { BankingClient } from '../client.js';
import type { BulkUploadClient } from '../../documents/client.js';
import type { LedgerClient } from '../../ledger/client.js';
import { bankAccountJson, jobJson, tieOutJson, tieOutSummary } from '../present.js';
import type { LinkBody, MergeBody } from '../schemas.js';

const TAGS = ['banking'] as const;

/** The ledger's answer may take this long before GET /accounts answers without the tie-out. */
const TIE_OUT_TIMEOUT_MS = 2_000;

/**
 * Spec §7 "Accounts", POST /transactions/sync, POST /transactions/merge and GET /jobs, each one
 * BankingService RPC; GET /bank-transactions (raw transactions until the ledger serves them); and
 * POST /plaid/webhook, whose raw body bytes go to banking untouched (their SHA-256 is signed).
 */
export async function registerBankingRoutes(
  app: FastifyInstance,
  {
    banking,
    ledger,
    bulkUploads,
    quickBooks,
  }: { banking: BankingClient; ledger: LedgerClient; bulkUploads?: BulkUploadClient; quickBooks?: QuickBooksSyncClient },
): Promise<void> {
  addSchemas(app, BANKING_SCHEMAS);
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });

  app.post(
    '/plaid/link-token',
    {
      config: WRITE,
      schema: {
        operationId: 'createLinkToken',
        summary: 'A Plaid Link token to link a bank',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        response: responses(200, ref(LinkTokenResponseSchema)),
      },
    },
    async (req) => banking.createLinkToken({}, headers(req)),
  );

  app.post<{ Body: { accountId?: string } }>(
    '/plaid/update-token',
    {
      config: WRITE,
      schema: {
        operationId: 'createUpdateToken',
        summary: 'A Plaid Link token in update mode, to reconnect an account',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(AccountIdBodySchema),
        response: responses(200, ref(LinkTokenResponseSchema)),
      },
    },
    async (req) => banking.createUpdateToken({ accountId: req.body.accountId }, headers(req)),
  );

  app.post<{ Body: LinkBody }>(
    '/accounts',
    {
      config: WRITE,
      schema: {
        operationId: 'linkAccounts',
        summary: 'Link the accounts of a Plaid Link session; their transactions sync in a job',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(LinkAccountsBodySchema),
        response: responses(200, ref(LinkAccountsResponseSchema)),
      },
    },
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
      return {
        accounts: r.accounts.map(bankAccountJson),
        resultCode: orNull(r.resultCode),
        matchingAccounts: r.matchingAccounts.map(bankAccountJson),
        jobs: r.jobs.map(jobJson),
      };
    },
  );

  app.get(
    '/accounts',
    {
      config: READ,
      schema: {
        operationId: 'listAccounts',
        summary: "The workspace's linked accounts, each with its tie-out against the books, and the cash summary",
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        response: responses(200, ref(AccountsResponseSchema)),
      },
    },
    async (req) => {
      const h = headers(req);
      // The tie-out is an addition to the page: a ledger that fails or is slow leaves the accounts without it.
      const [list, tie] = await Promise.all([
        banking.listAccounts({}, h),
        ledger.getBankTieOut({}, { ...h, timeoutMs: TIE_OUT_TIMEOUT_MS }).catch((err: unknown) => {
          req.log.warn({ err }, 'the ledger did not answer the bank tie-out; accounts answered without it');
          return undefined;
        }),
      ]);
      const byBank = new Map((tie?.accounts ?? []).map((t) => [t.bankAccountId, t]));
      return {
        accounts: list.accounts.map((a) => {
          const t = byBank.get(a.id);
          return { ...bankAccountJson(a), tieOut: t ? tieOutJson(t) : null };
        }),
        tieOut: tie ? tieOutSummary(list.accounts.map((a) => ({ type: a.type, tieOut: byBank.get(a.id) }))) : null,
      };
    },
  );

  app.get<{ Querystring: { accountId?: string } }>(
    '/accounts/check-anomaly',
    {
      config: READ,
      schema: {
        operationId: 'checkAnomaly',
        summary: 'Duplicate-account check',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
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
        matched: m.matched.map((p) => ({
          sourceTransactionId: p.sourceTransactionId,
          targetTransactionId: p.targetTransactionId,
          date: p.date,
          amount: centsToDollars(p.amountCents),
        })),
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
        operationId: 'removeAccount',
        summary: 'Unlink an account (its transactions stay in the books)',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        params: { type: 'object', properties: { id: uuid }, required: ['id'] },
        response: responses(200, { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false }),
      },
    },
    async (req) => banking.removeAccount({ accountId: req.params.id }, headers(req)),
  );

  app.post<{ Body: { accountId?: string } }>(
    '/transactions/sync',
    {
      config: WRITE,
      schema: {
        operationId: 'syncTransactions',
        summary: "Sync the account's bank feed now (a job)",
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(AccountIdBodySchema),
        response: responses(200, ref(SyncResponseSchema)),
      },
    },
    async (req) => {
      const r = await banking.syncTransactions({ accountId: req.body.accountId }, headers(req));
      return { message: r.message, job: jobJson(r.job) };
    },
  );

  app.post<{ Body: MergeBody }>(
    '/transactions/merge',
    {
      config: WRITE,
      schema: {
        operationId: 'mergeAccounts',
        summary: 'Merge a duplicate account into another',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(MergeBodySchema),
        response: responses(200, ref(MergeResponseSchema)),
      },
    },
    async (req) => {
      const b = req.body;
      const r = await banking.mergeAccounts(
        {
          sourceAccountId: b.sourceAccountId,
          targetAccountId: b.targetAccountId,
          conflicts: (b.conflicts ?? []).map((c) => ({
            sourceTransactionId: c.sourceTransactionId,
            targetTransactionId: c.targetTransactionId,
            resolution: c.resolution,
          })),
          keepTargetsNonMatchedTransactions: b.keepTargetsNonMatchedTransactions,
          mergeStrategy: b.mergeStrategy,
        },
        headers(req),
      );
      return {
        message: r.message,
        targetAccount: bankAccountJson(r.targetAccount!),
        movedTransactions: r.movedTransactions,
        droppedTransactions: r.droppedTransactions,
        removedTargetTransactions: r.removedTargetTransactions,
      };
    },
  );

  app.get<{ Querystring: { accountId?: string; status?: string } }>(
    '/jobs',
    {
      config: READ,
      schema: {
        operationId: 'listJobs',
        summary: 'Queue jobs (bank sync, bulk upload) and their progress',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        querystring: {
          type: 'object',
          properties: {
            accountId: uuid,
            status: {
              type: 'string',
              maxLength: 200,
              pattern:
                '^(waiting|waiting-children|active|completed|failed|paused|repeat|wait|delayed|prioritized)(,(waiting|waiting-children|active|completed|failed|paused|repeat|wait|delayed|prioritized))*$',
              description: 'Comma-separated queue statuses.',
            },
          },
          additionalProperties: false,
        },
        response: responses(200, ref(JobsResponseSchema)),
      },
    },
    async (req) => {
      const statuses = (req.query.status ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      // Bank jobs, and (unless an account is asked for) the documents service's bulk-upload jobs, newest first.
      const [r, bulk] = await Promise.all([
        banking.listJobs({ accountId: req.query.accountId, statuses }, headers(req)),
        // An addition to the bank's list (as the tie-out is to /accounts): a documents service that fails leaves it out.
        bulkUploads && !req.query.accountId
          ? bulkUploads.listBulkUploadJobs({ statuses }, headers(req)).catch((err: unknown) => {
              req.log.warn({ err }, 'the documents service did not answer its bulk-upload jobs; jobs answered without them');
              return undefined;
            })
          : undefined,
      ]);
      // And the integrations service's QuickBooks jobs ('accounting-package sync'), left out the same way when it fails.
      const qb =
        quickBooks && !req.query.accountId
          ? await quickBooks.listQuickBooksSyncJobs({ statuses }, headers(req)).catch((err: unknown) => {
              req.log.debug({ err }, 'the integrations service did not answer its QuickBooks jobs; jobs answered without them');
              return undefined;
            })
          : undefined;
      const jobs = [...r.jobs.map(jobJson), ...(bulk?.jobs ?? []).map(bulkUploadJobJson), ...(qb?.jobs ?? []).map(quickBooksQueueJobJson)];
      return { jobs: bulk || qb ? jobs.sort((a, b) => b.createdOn.localeCompare(a.createdOn)) : jobs };
    },
  );

  app.get<{ Querystring: { accountId?: string; page?: number; take?: number } }>(
    '/bank-transactions',
    {
      config: READ,
      schema: {
        operationId: 'listBankTransactions',
        summary: 'Raw bank transactions as received from the feed (newest first)',
        tags: TAGS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
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
          id: t.id,
          accountId: t.accountId,
          externalId: t.externalId,
          amount: centsToDollars(t.amountCents),
          isoCurrencyCode: t.isoCurrencyCode,
          date: t.date,
          authorizedDate: orNull(t.authorizedDate),
          name: t.name,
          merchantName: t.merchantName,
          pending: t.pending,
          providerCategory: t.providerCategory,
          version: Number(t.version),
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
          operationId: 'plaidWebhook',
          summary: 'Plaid webhooks (verified with the Plaid-Verification header; any failure is a 401)',
          tags: TAGS,
          security: [],
          headers: {
            type: 'object',
            properties: { 'plaid-verification': { type: 'string', description: 'ES256 JWT signed by Plaid over the SHA-256 of the body.' } },
          },
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
