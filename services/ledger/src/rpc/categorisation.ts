import type { ServiceImpl } from '@connectrpc/connect';
import { requireTenant } from '@ledgerline/platform';
import type { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { CategorisationUseCases } from '../usecases/categorisation.js';

/** GET /jobs/categorization's RPC (thin edge). */
export function categorisationHandlers(u: CategorisationUseCases): Pick<ServiceImpl<typeof LedgerService>, 'listCategorizationJobs'> {
  return {
    async listCategorizationJobs(req, ctx) {
      const { jobs, states } = await u.list(requireTenant(ctx), { statuses: req.statuses, transactionIds: req.transactionIds });
      return {
        jobs: jobs.map((j) => ({
          id: j.id,
          status: j.status,
          order: BigInt(j.job_order),
          totalTransactions: j.total_transactions,
          applied: j.applied,
          suggested: j.suggested,
          failedReason: j.failed_reason ?? '',
          createdAt: j.created_at.toISOString(),
          finishedAt: j.finished_at ? j.finished_at.toISOString() : '',
        })),
        transactions: states.map((s) => ({ transactionId: s.id, categoryState: s.category_state })),
      };
    },
  };
}
