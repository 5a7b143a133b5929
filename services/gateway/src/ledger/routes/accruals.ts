import type { AccrualSchedule } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { AccrualScheduleSchema, CreateAccrualBodySchema, UpdateAccrualBodySchema, AccrualResponseSchema } from '../schemas.js';
import { transactionJson } from '../present.js';
import { addSchemas } from '../../http/hardening.js';
import { centsToDollars } from '@ledgerline/platform';
import type { LedgerClient } from '../client.js';

/**
 * Spec §3 "Accrual" and §7: create-accrual, update-accrual, stop-accrual/{id}, GET and DELETE
 * accrual-schedule. Money is decimal dollars at this edge; the ledger owns the rules and their messages.
 */

export function scheduleJson(s: AccrualSchedule | undefined) {
  if (!s) throw new Error('ledger answered without a schedule');
  return {
    transactionId: s.transactionId,
    accrualStartDate: s.accrualStartDate,
    accrualEndDate: s.accrualEndDate,
    accrualCategory: s.accrualCategory,
    accrualCategoryId: s.accrualCategoryId,
    recogniseCategoryId: s.recogniseCategoryId,
    recogniseCategoryName: s.recogniseCategoryName,
    accrualStatus: s.accrualStatus,
    stoppedOn: s.stoppedOn || null,
    amount: centsToDollars(s.amountCents),
    accruedChildren: s.accruedChildren.map((m) => ({
      id: m.id,
      accrualAmount: centsToDollars(m.accrualAmountCents),
      accrualCategory: m.accrualCategory,
      accrualDateTime: m.accrualDate,
      isTransactionAdded: m.isTransactionAdded,
      runningBalance: centsToDollars(m.runningBalanceCents),
      journalEntryId: m.journalEntryId,
    })),
  };
}

interface AccrualBody {
  transactionId?: string;
  accrualStartDate?: string;
  accrualEndDate?: string;
  accrualCategory?: string;
  recogniseCategoryId?: string;
}

export async function registerAccrualRoutes(app: FastifyInstance, { ledger }: { ledger: LedgerClient }): Promise<void> {
  addSchemas(app, [AccrualScheduleSchema, CreateAccrualBodySchema, UpdateAccrualBodySchema, AccrualResponseSchema]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['ledger'], security: [{ bearerAuth: [] }], headers: WORKSPACE_HEADER_SCHEMA };
  const byTransaction = { type: 'object', properties: { transactionId: { type: 'string', maxLength: 100 } } } as const;
  const answer = (r: { message: string; transaction?: Parameters<typeof transactionJson>[0]; schedule?: AccrualSchedule; seq: bigint }) => ({
    message: r.message,
    transaction: transactionJson(r.transaction),
    schedule: scheduleJson(r.schedule),
    seq: Number(r.seq),
  });

  app.post<{ Body: AccrualBody }>(
    '/transactions/create-accrual',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createAccrual',
        summary: 'Accrue a transaction: booked to Prepaid Expenses / Deferred Revenue, recognised monthly into a category',
        body: ref(CreateAccrualBodySchema),
        response: responses(200, ref(AccrualResponseSchema)),
      },
    },
    async (req) => answer(await ledger.createAccrual({ ...req.body }, headers(req))),
  );

  app.patch<{ Body: AccrualBody & { updatedAccrualChildren?: { id?: string; amount?: number }[] } }>(
    '/transactions/update-accrual',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateAccrual',
        summary: "Change an accrual's dates, recognise category or month amounts",
        body: ref(UpdateAccrualBodySchema),
        response: responses(200, ref(AccrualResponseSchema)),
      },
    },
    async (req) => {
      const { updatedAccrualChildren, ...rest } = req.body;
      const children = withAmounts((a) =>
        (updatedAccrualChildren ?? []).map((c, i) => ({ id: c.id, amountCents: a.cents(`updatedAccrualChildren.${i}.amount`, c.amount) })),
      );
      return answer(await ledger.updateAccrual({ ...rest, updatedAccrualChildren: children }, headers(req)));
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/transactions/stop-accrual/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'stopAccrual',
        summary: 'Stop an accrual: months after today are dropped and their amount recognised today',
        params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
        response: responses(200, ref(AccrualResponseSchema)),
      },
    },
    async (req) => answer(await ledger.stopAccrual({ transactionId: req.params.id }, headers(req))),
  );

  app.get<{ Querystring: { transactionId?: string } }>(
    '/transactions/accrual-schedule',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getAccrualSchedule',
        summary: "An accrued transaction's schedule, month by month",
        querystring: byTransaction,
        response: responses(200, ref(AccrualScheduleSchema)),
      },
    },
    async (req) => scheduleJson((await ledger.getAccrualSchedule({ transactionId: req.query.transactionId ?? '' }, headers(req))).schedule),
  );

  app.delete<{ Querystring: { transactionId?: string } }>(
    '/transactions/accrual-schedule',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteAccrual',
        summary: 'Un-accrue: every recognition reversed, the transaction booked to its category from before',
        querystring: byTransaction,
        response: responses(200, { $ref: 'TransactionUpdatedResponse#' }),
      },
    },
    async (req) => {
      const r = await ledger.deleteAccrual({ transactionId: req.query.transactionId ?? '' }, headers(req));
      return { message: r.message, transaction: transactionJson(r.transaction), seq: Number(r.seq) };
    },
  );
}
