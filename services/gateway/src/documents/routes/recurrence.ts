import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, idParams, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { documentJson, KINDS, type Kind } from './documents.js';
import { RECURRENCE_BODY, recurrenceJson, RecurrenceSchema } from '../schemas.js';
import type { DocumentsClient } from '../client.js';

/**
 * Recurrence of bills, invoices and manual journals (spec documents-parties-integrations §3, §5, §7, §9; issue #18
 * item 6): POST /accounting/{bill|invoice|manual-entry}/recur/{id} makes the document a recurring template, POST
 * /accounting/stop-recurring/{id} (entityType) stops it. The documents service's scheduler creates each occurrence
 * once, a normal document booked through the ledger. Bodies are checked for shape only; the service owns the rules
 * and their messages ('Please fill all recurring details', 'Recurrence occurrence count must be a positive integer').
 */
const text = (maxLength: number, description: string) => ({ type: 'string', maxLength, description }) as const;

const RecurBodySchema = {
  $id: 'RecurBody',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...RECURRENCE_BODY,
    activity: text(10, 'Active (default) or Paused. Active again after Paused or Stopped resumes from today: the dates that passed meanwhile are not created.'),
  },
} as const;
const StopBodySchema = {
  $id: 'StopRecurringBody',
  type: 'object',
  additionalProperties: false,
  properties: { entityType: text(20, 'Bill, Invoice or ManualEntry. Required.') },
} as const;
const StopAnswerSchema = {
  $id: 'StopRecurringAnswer',
  type: 'object',
  additionalProperties: false,
  properties: { message: str, id: str, entityType: str, recurrence: ref(RecurrenceSchema) },
  required: ['message', 'id', 'entityType', 'recurrence'],
} as const;
const recurAnswer = (k: Kind) =>
  ({
    $id: `${KINDS[k].Name}RecurAnswer`,
    type: 'object',
    additionalProperties: false,
    properties: { message: str, [KINDS[k].one]: ref(KINDS[k].schema) },
    required: ['message', KINDS[k].one],
  }) as const;
const RECUR_ANSWERS = { bill: recurAnswer('bill'), invoice: recurAnswer('invoice'), manual_entry: recurAnswer('manual_entry') };
const ENTITY_TYPES: Record<Kind, string> = { bill: 'Bill', invoice: 'Invoice', manual_entry: 'ManualEntry' };

interface RecurBody {
  recurringStartDate?: string;
  recurringEndDate?: string;
  interval?: string;
  recurringEndType?: string;
  recurringCount?: number;
  activity?: string;
}

/** The recurrence routes: each one DocumentsService RPC with the caller's tenancy headers. */
export async function registerRecurrenceRoutes(app: FastifyInstance, { client }: { client: DocumentsClient }): Promise<void> {
  addSchemas(app, [RecurBodySchema, StopBodySchema, StopAnswerSchema, RECUR_ANSWERS.bill, RECUR_ANSWERS.invoice, RECUR_ANSWERS.manual_entry]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['documents'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  for (const k of ['bill', 'invoice', 'manual_entry'] as const) {
    const K = KINDS[k];
    const what = K.what.toLowerCase();
    app.post<{ Params: { id: string }; Body: RecurBody }>(
      `${K.singular}/recur/:id`,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: `recur${K.Name}`,
          params: idParams,
          body: ref(RecurBodySchema),
          response: responses(200, ref(RECUR_ANSWERS[k])),
          summary: `Make a ${what} recur: a new ${what} on every date of the schedule (created once each, booked through the ledger)`,
        },
      },
      async (req) => {
        const b = req.body ?? {};
        const r = await client.recurDocument(
          {
            kind: k,
            id: req.params.id,
            recurringStartDate: b.recurringStartDate,
            recurringEndDate: b.recurringEndDate,
            interval: b.interval,
            recurringEndType: b.recurringEndType,
            recurringCount: b.recurringCount,
            activity: b.activity,
          },
          headers(req),
        );
        return { message: `${K.what} recurrence saved`, [K.one]: documentJson(k, r.document) };
      },
    );
  }

  app.post<{ Params: { id: string }; Body: { entityType?: string } }>(
    '/accounting/stop-recurring/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'stopRecurring',
        params: idParams,
        body: ref(StopBodySchema),
        response: responses(200, ref(StopAnswerSchema)),
        summary: 'Stop a recurring bill, invoice or manual journal: no more occurrences; those created stay',
      },
    },
    async (req) => {
      const r = await client.stopRecurring({ id: req.params.id, entityType: req.body?.entityType ?? '' }, headers(req));
      const kind = (r.document?.kind ?? 'bill') as Kind;
      return { message: 'Recurring stopped', id: req.params.id, entityType: ENTITY_TYPES[kind], recurrence: recurrenceJson(r.document?.recurrence) };
    },
  );
}
