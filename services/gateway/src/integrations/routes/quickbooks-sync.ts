import type { QuickBooksSyncJob, QuickBooksSyncResult } from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import type { FastifyInstance } from 'fastify';
import { authOf, READ, WRITE } from '../../http/auth.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { QuickBooksSyncClient } from '../quickbooks-client.js';
import {
  QuickBooksSyncJobResultSchema,
  QuickBooksSyncJobSchema,
  QuickBooksTransactionsSyncBodySchema,
  QuickBooksTransactionsSyncSchema,
  QuickBooksUnsyncedCountSchema,
  QuickBooksUnsyncedEntitiesSchema,
} from '../quickbooks-schemas.js';

const TAGS = ['integrations'];
const TYPES = ['account', 'vendor', 'customer', 'transaction'] as const;

export const quickBooksJobJson = (j: QuickBooksSyncJob | undefined) => ({
  id: j?.id ?? '',
  queue: j?.queue ?? '',
  kind: j?.kind ?? '',
  status: j?.status ?? '',
  attempts: j?.attempts ?? 0,
  total: j?.total ?? 0,
  done: j?.done ?? 0,
  error: j?.error ?? '',
  createdAt: j?.createdAt ?? '',
  startedAt: j?.startedAt ?? '',
  finishedAt: j?.finishedAt ?? '',
});

/** A QuickBooks job as GET /jobs answers jobs (spec §3 Job): data.transactionPushed of data.totalTransactions entities. */
export const quickBooksQueueJobJson = (j: QuickBooksSyncJob) => ({
  id: j.id,
  status: j.status as 'waiting' | 'active' | 'completed' | 'failed',
  type: j.queue,
  order: 0,
  data: { requestId: j.id, accountId: '', transactionPushed: j.done, totalTransactions: j.total, uploadType: null },
  failedReason: j.error === '' ? null : j.error,
  attempts: j.attempts,
  createdOn: j.createdAt,
  finishedOn: j.finishedAt === '' ? null : j.finishedAt,
});

const items = (list: QuickBooksSyncResult['synced'] | undefined) => (list ?? []).map((i) => ({ id: i.id, source: i.source, message: i.message }));
const resultJson = (r: QuickBooksSyncResult | undefined) => ({
  synced: items(r?.synced),
  unsynced: items(r?.unsynced),
  syncFailed: items(r?.syncFailed),
  unsyncFailed: items(r?.unsyncFailed),
  ignored: items(r?.ignored),
});

/** Spec §7 "Accounting package": un-synced entities, bulk sync (and its job), POST /transactions/qbo-sync. */
export async function registerQuickBooksSyncRoutes(app: FastifyInstance, { client }: { client: QuickBooksSyncClient }): Promise<void> {
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };
  const unsynced = async (req: Parameters<typeof authOf>[0]) => {
    const r = await client.listUnsyncedQuickBooksEntities({}, headers(req));
    const byType = new Map(r.entities.map((e) => [e.entityType, e.ids]));
    return Object.fromEntries(TYPES.map((t) => [t, byType.get(t) ?? []])) as Record<(typeof TYPES)[number], string[]>;
  };

  app.get(
    '/quickbook/un-synced-entities/',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listQuickBooksUnsyncedEntities',
        summary: 'Per entity type, the ids QuickBooks lacks',
        response: responses(200, ref(QuickBooksUnsyncedEntitiesSchema)),
      },
    },
    async (req) => unsynced(req),
  );

  app.get(
    '/quickbook/un-synced-entities/count',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'countQuickBooksUnsyncedEntities',
        summary: 'Per entity type, how many entities QuickBooks lacks',
        response: responses(200, ref(QuickBooksUnsyncedCountSchema)),
      },
    },
    async (req) => {
      const lists = await unsynced(req);
      const counts = Object.fromEntries(TYPES.map((t) => [t, lists[t].length])) as Record<(typeof TYPES)[number], number>;
      return { ...counts, total: TYPES.reduce((s, t) => s + counts[t], 0) };
    },
  );

  app.post(
    '/quickbook/bulk-sync',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'startQuickBooksBulkSync',
        summary: "Starts a job of the 'accounting-package sync' queue pushing every un-synced entity (joins an unfinished one)",
        response: responses(202, ref(QuickBooksSyncJobSchema)),
      },
    },
    async (req, reply) => {
      const r = await client.startQuickBooksBulkSync({}, headers(req));
      reply.code(202);
      return quickBooksJobJson(r.job);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/quickbook/bulk-sync/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getQuickBooksSyncJob',
        summary: 'A QuickBooks sync job: its progress and result lists',
        params: idParams,
        response: responses(200, ref(QuickBooksSyncJobResultSchema)),
      },
    },
    async (req) => {
      const r = await client.getQuickBooksSyncJob({ id: req.params.id }, headers(req));
      return { job: quickBooksJobJson(r.job), ...resultJson(r.result) };
    },
  );

  app.post<{ Body: { sync?: string[]; unsync?: string[] } }>(
    '/transactions/qbo-sync',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'syncTransactionsToQuickBooks',
        summary: 'Syncs and un-syncs the listed transactions with QuickBooks now',
        body: QuickBooksTransactionsSyncBodySchema,
        response: responses(200, ref(QuickBooksTransactionsSyncSchema)),
      },
    },
    async (req) => {
      const r = await client.syncQuickBooksTransactions({ sync: req.body?.sync ?? [], unsync: req.body?.unsync ?? [] }, headers(req));
      return { jobId: r.jobId, ...resultJson(r.result) };
    },
  );
}
