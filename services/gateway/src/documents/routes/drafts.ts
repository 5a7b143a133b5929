import type { Draft, DraftBatch } from '@ledgerline/proto/documents/v1/drafts_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, bool, int, num, object, ref, responses, str, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { DraftsClient } from '../client.js';

/**
 * Drafts (spec documents-parties-integrations §3 Draft, §5, §7, §8; issue #19 item 5): POST, GET, PATCH /drafts;
 * DELETE /drafts (draftIds comma-joined); DELETE /drafts/bulk-delete (bulkUploadId); POST
 * /accounting/drafts/create-bills and /create-invoices (draftIds). Each route one DraftsService RPC. A draft posts
 * nothing; its conversion creates each valid draft as POST /accounting/bill/v2 (or invoice/v2) would, once per draft.
 * Bodies are checked for shape only; the service owns the rules and their messages.
 */
const text = (maxLength: number, description?: string) => ({ type: 'string', maxLength, ...(description ? { description } : {}) }) as const;

const DraftProblemSchema = {
  $id: 'DraftProblem',
  description: "A field of metaData (e.g. vendorId, lineItems.0.amount) and its message ('Line Item N: ...').",
  ...object({ field: str, message: str }, ['field', 'message']),
};

const DraftMetaDataSchema = {
  $id: 'DraftMetaDataBody',
  description:
    'A bill or invoice payload in progress (the fields of POST /accounting/bill/v2 or /invoice/v2, every one optional), plus the recurrence, the upload it came from and what was read from the file.',
  ...object({
    billDate: text(10),
    invoiceDate: text(10),
    dueDate: text(10),
    vendorId: text(100, 'Bills: a vendor of the workspace.'),
    customerId: text(100, 'Invoices: a customer of the workspace.'),
    invoiceCode: text(1000),
    referenceNo: text(1000),
    description: text(1000),
    companyName: text(1000),
    companyAddress: text(1000),
    lineItems: {
      type: 'array',
      maxItems: 500,
      items: object({
        serviceName: text(1000),
        description: text(1000),
        categoryId: text(100, 'A category of the workspace.'),
        quantity: { ...num, description: 'Invoices.' },
        rate: { ...num, description: 'Invoices: dollars.' },
        amount: { ...num, description: 'Dollars.' },
      }),
    },
    isRecurring: { ...bool, description: 'With any recurring field given: the document recurs once created (start date, end date and interval all required).' },
    recurringStartDate: text(10),
    recurringEndDate: text(10),
    interval: text(20, 'daily, weekly, monthly, quarterly or yearly.'),
    uploadId: text(100, 'The uploaded file the draft was read from.'),
    extracted: {
      type: 'object',
      description: 'What was read from the file (merchant, date, total...), kept for review.',
      maxProperties: 50,
      additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
    },
  }),
};

const DraftSchema = {
  $id: 'Draft',
  description:
    'A bill or invoice in progress (spec §3 Draft). It posts nothing. firstError: what converting it would refuse now (null when nothing is known to be wrong).',
  ...object(
    {
      id: str,
      draftType: str,
      entityType: { ...str, description: 'bill or invoice.' },
      metaData: ref(DraftMetaDataSchema),
      createdByUser: str,
      lastModifiedByUser: str,
      publishedDate: str,
      createdOn: str,
      updatedOn: str,
      bulkUploadId: str,
      firstError: { anyOf: [ref(DraftProblemSchema), { type: 'null' }] },
    },
    [
      'id',
      'draftType',
      'entityType',
      'metaData',
      'createdByUser',
      'lastModifiedByUser',
      'publishedDate',
      'createdOn',
      'updatedOn',
      'bulkUploadId',
      'firstError',
    ],
  ),
};
const DraftPageMetaSchema = {
  $id: 'DraftPageMeta',
  ...object({ page: int, take: int, itemCount: int, pageCount: int, hasPreviousPage: bool, hasNextPage: bool }, [
    'page',
    'take',
    'itemCount',
    'pageCount',
    'hasPreviousPage',
    'hasNextPage',
  ]),
};
const DraftListSchema = { $id: 'DraftList', ...object({ data: { type: 'array', items: ref(DraftSchema) }, meta: ref(DraftPageMetaSchema) }, ['data', 'meta']) };
const DraftAnswerSchema = { $id: 'DraftAnswer', ...object({ message: str, draft: ref(DraftSchema) }, ['message', 'draft']) };
const DraftResultSchema = {
  $id: 'DraftResult',
  ...object({ draftId: str, documentId: str, error: { anyOf: [ref(DraftProblemSchema), { type: 'null' }] } }, ['draftId', 'documentId', 'error']),
};
const DraftBatchSchema = {
  $id: 'DraftBatch',
  description:
    "Spec §3 batch result. Conversion: createdCount, failedCount, success (none failed), deletedCount (the drafts that left the list: the converted ones), and each draft's result in order.",
  ...object(
    { message: str, createdCount: int, failedCount: int, success: bool, deletedCount: int, results: { type: 'array', items: ref(DraftResultSchema) } },
    ['message', 'createdCount', 'failedCount', 'success', 'deletedCount', 'results'],
  ),
};

const DraftBodySchema = {
  $id: 'DraftBody',
  ...object({
    entityType: text(20, 'bill or invoice. Required.'),
    draftType: text(20, 'manual (default), upload, bulk_upload or email.'),
    publishedAt: text(40, 'YYYY-MM-DD or an ISO date-time; absent: now.'),
    metaData: ref(DraftMetaDataSchema),
    bulkUploadId: text(100, 'The bulk upload the draft came from (a UUID).'),
  }),
};
const DraftPatchSchema = {
  $id: 'DraftPatchBody',
  ...object({
    id: text(100, 'The draft. Required.'),
    metaData: { ...ref(DraftMetaDataSchema), description: "Replaces the draft's metaData as a whole." },
    draftType: text(20),
    publishedAt: text(40),
  }),
};
const ConvertBodySchema = {
  $id: 'DraftConvertBody',
  ...object({ draftIds: { type: 'array', maxItems: 100, items: text(100), description: 'The drafts to convert, in order. At least one.' } }),
};

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: int,
    take: int,
    entityType: text(20, 'bill or invoice.'),
    draftType: text(20),
    bulkUploadId: text(100, 'Only the drafts of this bulk upload.'),
  },
} as const;
const deleteQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['draftIds'],
  properties: { draftIds: text(4000, 'Comma-joined draft ids. At least one.') },
} as const;
const bulkQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['bulkUploadId'],
  properties: { bulkUploadId: text(100, 'The bulk upload whose open drafts are deleted.') },
} as const;

interface DraftBody {
  entityType?: string;
  draftType?: string;
  publishedAt?: string;
  metaData?: Record<string, unknown>;
  bulkUploadId?: string;
}
interface DraftPatch {
  id?: string;
  metaData?: Record<string, unknown>;
  draftType?: string;
  publishedAt?: string;
}

const problemJson = (p: { field: string; message: string } | undefined) => (p ? { field: p.field, message: p.message } : null);

export function draftJson(d: Draft | undefined): Record<string, unknown> {
  if (!d) throw new Error('the documents service answered no draft');
  return {
    id: d.id,
    draftType: d.draftType,
    entityType: d.entityType,
    metaData: JSON.parse(d.metaDataJson || '{}') as unknown,
    createdByUser: d.createdByUser,
    lastModifiedByUser: d.lastModifiedByUser,
    publishedDate: d.publishedDate,
    createdOn: d.createdOn,
    updatedOn: d.updatedOn,
    bulkUploadId: d.bulkUploadId,
    firstError: problemJson(d.firstError),
  };
}

const batchJson = (b: DraftBatch | undefined) => ({
  message: b?.message ?? '',
  createdCount: b?.createdCount ?? 0,
  failedCount: b?.failedCount ?? 0,
  success: b?.success ?? false,
  deletedCount: b?.deletedCount ?? 0,
  results: (b?.results ?? []).map((r) => ({ draftId: r.draftId, documentId: r.documentId, error: problemJson(r.error) })),
});

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
        querystring: listQuery,
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
        querystring: deleteQuery,
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
        querystring: bulkQuery,
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
