import type { FastifyInstance } from 'fastify';
import { authOf } from '../../http/auth.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { NotificationsClient } from '../client.js';
import { recordJson } from '../present.js';
import { NotificationsRecordSchema, CreateRecordBodySchema } from '../schemas.js';

/** REST routes of the notifications service's records: each one RPC with the caller's tenancy headers. */
export async function registerRecordRoutes(app: FastifyInstance, { client }: { client: NotificationsClient }): Promise<void> {
  app.post<{ Body: { title?: string } }>(
    '/notifications/records',
    {
      config: { auth: { workspace: 'required' } },
      schema: {
        tags: ['notifications'],
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'createNotificationsRecord',
        summary: 'Creates a record in the current workspace (the notifications service)',
        body: CreateRecordBodySchema,
        response: responses(201, ref(NotificationsRecordSchema)),
      },
    },
    async (req, reply) => {
      const { record } = await client.createRecord({ title: req.body.title ?? '' }, { headers: authOf(req).rpcHeaders });
      reply.code(201);
      return recordJson(record);
    },
  );
}
