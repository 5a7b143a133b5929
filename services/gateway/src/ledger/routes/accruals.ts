import type { AccrualSchedule } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { num, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { SEQ_PROPERTY } from '../schemas.js';
import { transactionJson } from '../present.js';
import { addSchemas } from '../../http/hardening.js';
import { centsToDollars } from '@ledgerline/platform';
import type { LedgerClient } from '../client.js';

/**
 * Spec §3 "Accrual" and §7: create-accrual, update-accrual, stop-accrual/{id}, GET and DELETE
 * accrual-schedule. Money is decimal dollars at this edge; the ledger owns the rules and their messages.
 */
const field = { type: 'string', maxLength: 100 } as const;

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

const accrualFields = { transactionId: field, accrualStartDate: field, accrualEndDate: field, accrualCategory: field, recogniseCategoryId: field } as const;

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
  const byTransaction = { type: 'object', properties: { transactionId: field } } as const;
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
