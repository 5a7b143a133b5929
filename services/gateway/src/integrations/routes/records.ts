import type { FastifyInstance } from 'fastify';
import { authOf } from '../../http/auth.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { IntegrationsClient } from '../client.js';
import { recordJson } from '../present.js';
import { IntegrationsRecordSchema, CreateRecordBodySchema } from '../schemas.js';

/** REST routes of the integrations service's records: each one RPC with the caller's tenancy headers. */
export async function registerRecordRoutes(app: FastifyInstance, { client }: { client: IntegrationsClient }): Promise<void> {
  app.post<{ Body: { title?: string } }>(
    '/integrations/records',
    {
      config: { auth: { workspace: 'required' } },
      schema: {
        tags: ['integrations'],
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'createIntegrationsRecord',
        summary: 'Creates a record in the current workspace (the integrations service)',
        body: CreateRecordBodySchema,
        response: responses(201, ref(IntegrationsRecordSchema)),
      },
    },
    async (req, reply) => {
      const { record } = await client.createRecord({ title: req.body.title ?? '' }, { headers: authOf(req).rpcHeaders });
      reply.code(201);
      return recordJson(record);
    },
  );
}
