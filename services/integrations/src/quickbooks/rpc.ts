import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  ConnectQuickBooksResponseSchema,
  DisconnectQuickBooksResponseSchema,
  GetQuickBooksIntegrationResponseSchema,
  GetQuickBooksOAuthLinkResponseSchema,
  QuickBooksIntegrationSchema,
  QuickBooksService as QuickBooksRpc,
  QuickBooksSyncService as QuickBooksSyncRpc,
  GetQuickBooksSyncJobResponseSchema,
  ListQuickBooksSyncJobsResponseSchema,
  ListUnsyncedQuickBooksEntitiesResponseSchema,
  QuickBooksSyncJobSchema,
  QuickBooksSyncResultSchema,
  StartQuickBooksBulkSyncResponseSchema,
  SyncQuickBooksTransactionsResponseSchema,
} from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import type { QuickBooksIntegration, QuickBooksIntegrationView } from './integration.js';
import type { QuickBooksJobs, SyncResult } from './jobs.js';
import type { QbJobRow } from './store.js';

const iso = (d: Date | null | undefined): string => (d ? d.toISOString() : '');

const integrationMessage = (v: QuickBooksIntegrationView) =>
  create(QuickBooksIntegrationSchema, {
    id: v.id,
    workspaceId: v.workspaceId,
    realmId: v.realmId,
    companyName: v.companyName,
    connectedAt: iso(v.connectedAt),
    lastSyncedAt: iso(v.lastSyncedAt),
    isReconnectRequired: v.isReconnectRequired,
    type: v.type,
  });

const jobMessage = (j: QbJobRow) =>
  create(QuickBooksSyncJobSchema, {
    id: j.id,
    queue: j.queue,
    kind: j.kind,
    status: j.status,
    attempts: j.attempts,
    total: j.total,
    done: j.done,
    error: j.error ?? '',
    createdAt: iso(j.created_at),
    startedAt: iso(j.started_at),
    finishedAt: iso(j.finished_at),
  });

const resultMessage = (r: SyncResult) => create(QuickBooksSyncResultSchema, r);

/** The QuickBooksService handlers (quickbooks.proto): input rules, the caller's tenancy, one use case. */
export function quickBooksRoutes(quickbooks: QuickBooksIntegration, jobs: QuickBooksJobs): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      QuickBooksRpc,
      withInputRules(QuickBooksRpc, {
        async getQuickBooksOAuthLink(_req, ctx) {
          return create(GetQuickBooksOAuthLinkResponseSchema, await quickbooks.oauthLink(requireTenant(ctx)));
        },
        async connectQuickBooks(req, ctx) {
          const tenant = requireTenant(ctx);
          const v = await quickbooks.connect(tenant, { code: req.code, state: req.state, realmId: req.realmId });
          // The company's chart, vendors and customers come in on the 'mapper and reverse sync' queue.
          await jobs.requestReverse(tenant);
          return create(ConnectQuickBooksResponseSchema, { integration: integrationMessage(v) });
        },
        async getQuickBooksIntegration(_req, ctx) {
          return create(GetQuickBooksIntegrationResponseSchema, { integration: integrationMessage(await quickbooks.integration(requireTenant(ctx))) });
        },
        async disconnectQuickBooks(req, ctx) {
          return create(DisconnectQuickBooksResponseSchema, { id: await quickbooks.disconnect(requireTenant(ctx), req.id) });
        },
      }),
    );
    router.service(
      QuickBooksSyncRpc,
      withInputRules(QuickBooksSyncRpc, {
        async listUnsyncedQuickBooksEntities(_req, ctx) {
          return create(ListUnsyncedQuickBooksEntitiesResponseSchema, { entities: await jobs.unsyncedEntities(requireTenant(ctx)) });
        },
        async startQuickBooksBulkSync(_req, ctx) {
          return create(StartQuickBooksBulkSyncResponseSchema, { job: jobMessage(await jobs.requestBulk(requireTenant(ctx))) });
        },
        async getQuickBooksSyncJob(req, ctx) {
          const { job, result } = await jobs.job(requireTenant(ctx), req.id);
          return create(GetQuickBooksSyncJobResponseSchema, { job: jobMessage(job), result: resultMessage(result) });
        },
        async listQuickBooksSyncJobs(req, ctx) {
          return create(ListQuickBooksSyncJobsResponseSchema, { jobs: (await jobs.list(requireTenant(ctx), req.statuses)).map(jobMessage) });
        },
        async syncQuickBooksTransactions(req, ctx) {
          const { job, result } = await jobs.syncTransactions(requireTenant(ctx), { sync: req.sync, unsync: req.unsync });
          return create(SyncQuickBooksTransactionsResponseSchema, { jobId: job.id, result: resultMessage(result) });
        },
      }),
    );
  };
}
