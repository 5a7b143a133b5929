import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { DocumentsClient } from '../client.js';
import { type Kind, KINDS, RECUR_ANSWERS, type RecurBody, RecurBodySchema, StopAnswerSchema, StopBodySchema } from '../schemas.js';
import { documentJson, recurrenceJson } from '../present.js';

const ENTITY_TYPES: Record<Kind, string> = { bill: 'Bill', invoice: 'Invoice', manual_entry: 'ManualEntry' };

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
