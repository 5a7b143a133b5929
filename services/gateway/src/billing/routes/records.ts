import type { FastifyInstance } from 'fastify';
import { authOf } from '../../http/auth.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { BillingClient } from '../client.js';
import { recordJson } from '../present.js';
import { BillingRecordSchema, CreateRecordBodySchema } from '../schemas.js';

/** REST routes of the billing service's records: each one RPC with the caller's tenancy headers. */
export async function registerRecordRoutes(app: FastifyInstance, { client }: { client: BillingClient }): Promise<void> {
  app.post<{ Body: { title?: string } }>(
    '/billing/records',
    {
      config: { auth: { workspace: 'required' } },
      schema: {
        tags: ['billing'],
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'createBillingRecord',
        summary: 'Creates a record in the current workspace (the billing service)',
        body: CreateRecordBodySchema,
        response: responses(201, ref(BillingRecordSchema)),
      },
    },
    async (req, reply) => {
      const { record } = await client.createRecord({ title: req.body.title ?? '' }, { headers: authOf(req).rpcHeaders });
      reply.code(201);
      return recordJson(record);
    },
  );
}
