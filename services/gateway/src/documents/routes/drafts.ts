import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { DraftsClient } from '../client.js';
import {
  ConvertBodySchema,
  DRAFT_BULK_QUERY,
  DRAFT_DELETE_QUERY,
  DRAFT_LIST_QUERY,
  DraftAnswerSchema,
  DraftBatchSchema,
  type DraftBody,
  DraftBodySchema,
  DraftListSchema,
  DraftMetaDataSchema,
  DraftPageMetaSchema,
  type DraftPatch,
  DraftPatchSchema,
  DraftProblemSchema,
  DraftResultSchema,
  DraftSchema,
} from '../schemas.js';
import { batchJson, draftJson } from '../present.js';

/** REST routes of the drafts: each one RPC with the caller's tenancy headers. */
export async function registerDraftsRoutes(app: FastifyInstance, { client }: { client: DraftsClient }): Promise<void> {
  addSchemas(app, [
    DraftProblemSchema,
    DraftMetaDataSchema,
    DraftSchema,
    DraftPageMetaSchema,
    DraftListSchema,
    DraftAnswerSchema,
    DraftResultSchema,
    DraftBatchSchema,
    DraftBodySchema,
    DraftPatchSchema,
    ConvertBodySchema,
  ]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['drafts'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.post<{ Body: DraftBody }>(
    '/drafts',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createDraft',
        summary: 'Save a bill or invoice in progress as a draft (posts nothing)',
        body: ref(DraftBodySchema),
        response: responses(201, ref(DraftAnswerSchema)),
      },
    },
    async (req, reply) => {
      const b = req.body ?? {};
      const r = await client.createDraft(
        {
          entityType: b.entityType ?? '',
          draftType: b.draftType ?? '',
          publishedAt: b.publishedAt ?? '',
          metaDataJson: JSON.stringify(b.metaData ?? {}),
          bulkUploadId: b.bulkUploadId ?? '',
        },
        headers(req),
      );
      reply.code(201);
      return { message: 'Draft saved', draft: draftJson(r.draft) };
    },
  );

  app.get<{ Querystring: { page?: number; take?: number; entityType?: string; draftType?: string; bulkUploadId?: string } }>(
    '/drafts',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listDrafts',
        summary: 'The open drafts, oldest first (20 a page by default), each with its first error',
        querystring: DRAFT_LIST_QUERY,
        response: responses(200, ref(DraftListSchema)),
      },
    },
    async (req) => {
      const q = req.query;
      const r = await client.listDrafts(
        { page: q.page ?? 0, take: q.take ?? 0, entityType: q.entityType ?? '', draftType: q.draftType ?? '', bulkUploadId: q.bulkUploadId ?? '' },
        headers(req),
      );
      return { data: r.data.map(draftJson), meta: r.meta };
    },
  );

  app.patch<{ Body: DraftPatch }>(
    '/drafts',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateDraft',
        summary: 'Edit a draft: metaData replaced as a whole when given',
        body: ref(DraftPatchSchema),
        response: responses(200, ref(DraftAnswerSchema)),
      },
    },
    async (req) => {
      const b = req.body ?? {};
      const r = await client.updateDraft(
        {
          id: b.id ?? '',
          hasMetaData: b.metaData !== undefined,
          metaDataJson: JSON.stringify(b.metaData ?? {}),
          draftType: b.draftType ?? '',
          publishedAt: b.publishedAt ?? '',
        },
        headers(req),
      );
      return { message: 'Draft saved', draft: draftJson(r.draft) };
    },
  );

  app.delete<{ Querystring: { draftIds?: string } }>(
    '/drafts',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteDrafts',
        summary: 'Delete drafts (draftIds comma-joined)',
        querystring: DRAFT_DELETE_QUERY,
        response: responses(200, ref(DraftBatchSchema)),
      },
    },
    async (req) => batchJson((await client.deleteDrafts({ draftIds: (req.query.draftIds ?? '').split(',') }, headers(req))).batch),
  );

  app.delete<{ Querystring: { bulkUploadId?: string } }>(
    '/drafts/bulk-delete',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteBulkUploadDrafts',
        summary: 'Delete every open draft of a bulk upload',
        querystring: DRAFT_BULK_QUERY,
        response: responses(200, ref(DraftBatchSchema)),
      },
    },
    async (req) => batchJson((await client.deleteBulkUploadDrafts({ bulkUploadId: req.query.bulkUploadId ?? '' }, headers(req))).batch),
  );

  for (const [entity, path] of [
    ['bill', '/accounting/drafts/create-bills'],
    ['invoice', '/accounting/drafts/create-invoices'],
  ] as const) {
    app.post<{ Body: { draftIds?: string[] } }>(
      path,
      {
        config: WRITE,
        schema: {
          ...common,
          operationId: entity === 'bill' ? 'createBillsFromDrafts' : 'createInvoicesFromDrafts',
          body: ref(ConvertBodySchema),
          response: responses(200, ref(DraftBatchSchema)),
          summary: `Create ${entity}s from drafts: each checked by the ${entity}'s rules and created once (a retried call answers the same ${entity}s)`,
        },
      },
      async (req) => batchJson((await client.convertDrafts({ entityType: entity, draftIds: req.body?.draftIds ?? [] }, headers(req))).batch),
    );
  }
}
