import { commaList } from '@ledgerline/platform';
import type { CategorizationJob } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { LedgerClient } from '../client.js';
import { CategorizationJobSchema, CategorizationJobsResponseSchema } from '../schemas.js';

/**
 * GET /jobs/categorization (spec platform-core §3 "Job", §7; issue #17 item 7): the workspace's categorisation
 * queue — one job per import batch the learned categorisation was asked about — and, for the transactions named
 * in `transactions`, whether each is categorized or still categorizing. One LedgerService RPC.
 */

const STATUS = '(waiting|waiting-children|active|completed|failed|paused|repeat|wait|delayed|prioritized)';

function jobJson(j: CategorizationJob) {
  return {
    id: j.id,
    status: j.status,
    type: 'categorization',
    order: Number(j.order),
    data: { requestId: j.id, accountId: null, transactionPushed: j.applied + j.suggested, totalTransactions: j.totalTransactions, uploadType: null },
    applied: j.applied,
    suggested: j.suggested,
    failedReason: j.failedReason || null,
    attempts: j.status === 'waiting' ? 0 : 1,
    createdOn: j.createdAt,
    finishedOn: j.finishedAt || null,
  };
}

export async function registerCategorizationJobRoutes(app: FastifyInstance, { ledger }: { ledger: LedgerClient }): Promise<void> {
  addSchemas(app, [CategorizationJobSchema, CategorizationJobsResponseSchema]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  app.get<{ Querystring: { transactions?: string; status?: string } }>(
    '/jobs/categorization',
    {
      config: { auth: { workspace: 'required' as const } },
      schema: {
        operationId: 'listCategorizationJobs',
        summary: 'The categorisation queue and the category state of some transactions',
        tags: ['ledger'],
        security: [{ bearerAuth: [] }],
        headers: WORKSPACE_HEADER_SCHEMA,
        querystring: {
          type: 'object',
          properties: {
            transactions: { type: 'string', maxLength: 37 * 500, description: 'Comma-separated transaction ids (at most 500) whose category state to answer.' },
            status: { type: 'string', maxLength: 200, pattern: `^${STATUS}(,${STATUS})*$`, description: 'Comma-separated queue statuses.' },
          },
          additionalProperties: false,
        },
        response: responses(200, ref(CategorizationJobsResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.listCategorizationJobs({ statuses: commaList(req.query.status), transactionIds: commaList(req.query.transactions) }, headers(req));
      return { jobs: r.jobs.map(jobJson), transactions: r.transactions.map((t) => ({ id: t.transactionId, categoryState: t.categoryState })) };
    },
  );
}
