import type { Client } from '@connectrpc/connect';
import type { PartiesService } from '@ledgerline/proto/parties/v1/parties_pb';
import type { FastifyInstance } from 'fastify';
import { authOf } from '../http/auth.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA } from '../http/schemas.js';

/** The gateway's client of the parties service (services/parties/README.md). */
export type PartiesClient = Client<typeof PartiesService>;

export const PartiesRecordSchema = {
  $id: 'PartiesRecord',
  type: 'object',
  description: 'A record of the parties service.',
  properties: {
    id: { type: 'string', format: 'uuid' },
    title: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'title', 'createdAt'],
  additionalProperties: false,
} as const;

const CreateRecordBodySchema = {
  type: 'object',
  // Shape only (as every body, services/gateway/src/http/schemas.ts): the service owns the rules and their messages.
  properties: { title: { type: 'string', maxLength: 200, description: 'What the record is called: 1 to 200 characters, not only spaces.' } },
  additionalProperties: false,
} as const;

/** REST routes of the parties service: each one RPC with the caller's tenancy headers. */
export async function registerPartiesRoutes(app: FastifyInstance, { client }: { client: PartiesClient }): Promise<void> {
  app.addSchema(PartiesRecordSchema);
  app.post<{ Body: { title?: string } }>(
    '/parties/records',
    {
      config: { auth: { workspace: 'required' } },
      schema: {
        tags: ['parties'], security: [{ bearerAuth: [] }], headers: WORKSPACE_HEADER_SCHEMA,
        operationId: 'createPartiesRecord', summary: 'Creates a record in the current workspace (the parties service)',
        body: CreateRecordBodySchema, response: responses(201, ref(PartiesRecordSchema)),
      },
    },
    async (req, reply) => {
      const { record } = await client.createRecord({ title: req.body.title ?? '' }, { headers: authOf(req).rpcHeaders });
      reply.code(201);
      return { id: record?.id ?? '', title: record?.title ?? '', createdAt: record?.createdAt ?? '' };
    },
  );
}
