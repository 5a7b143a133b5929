import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { addSchemas } from '../../http/hardening.js';
import { HttpError } from '../../http/errors.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { UploadsClient } from '../client.js';
import {
  FailedFileSchema,
  MatchUploadBodySchema,
  TransactionSummarySchema,
  UpdateUploadBodySchema,
  UPLOAD_LIST_QUERY,
  UploadAnswerSchema,
  UploadListSchema,
  UploadPageMetaSchema,
  UploadResultSchema,
  UploadSchema,
  UploadSuggestionSchema,
} from '../schemas.js';
import { uploadJson } from '../present.js';

/**
 * Uploads (spec documents-parties-integrations "Receipt or document upload" and §7 "Uploads", platform-core §3 and §7;
 * issue #19): GET /workspace-uploads (uploadType, receiptStatus, startDate, endDate, transactionId, page, take),
 * GET and PATCH /workspace-uploads/{id}, POST /workspace-uploads/{id}/match, POST /workspace-uploads/bill and
 * /invoice, and POST /workspace-uploads for receipts and other files. The documents service owns the files (kept
 * private in the S3 object store) and the rules; a file is judged by its content, never by its name.
 */

/** At most 20 files of 10 MB in one request (the service checks each file; this only bounds the body). */
const MAX_FILES = 20;
const UPLOAD_BODY_LIMIT = MAX_FILES * 10 * 1024 * 1024 + 1024 * 1024;

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A file part of a parsed multipart body. */
interface FormFile {
  name: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const MULTIPART_MESSAGE = 'The request must be multipart/form-data with files';

/** The multipart body's fields and files (the platform's fetch FormData parser: no extra dependency). */
async function formOf(req: FastifyRequest<{ Body: Buffer }>): Promise<FormData> {
  const contentType = String(req.headers['content-type'] ?? '');
  if (!Buffer.isBuffer(req.body) || !contentType.startsWith('multipart/form-data')) throw HttpError.invalid([{ field: 'files', message: MULTIPART_MESSAGE }]);
  try {
    return await new Response(new Uint8Array(req.body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw HttpError.invalid([{ field: 'files', message: MULTIPART_MESSAGE }]);
  }
}

async function filesOf(form: FormData): Promise<{ fileName: string; content: Uint8Array }[]> {
  const entries = [...form.getAll('files'), ...form.getAll('file')].filter((f) => typeof f !== 'string') as unknown as FormFile[];
  if (entries.length === 0) throw HttpError.invalid([{ field: 'files', message: 'files is required' }]);
  if (entries.length > MAX_FILES) throw HttpError.invalid([{ field: 'files', message: `files can hold at most ${MAX_FILES} files` }]);
  return Promise.all(entries.map(async (f) => ({ fileName: f.name, content: new Uint8Array(await f.arrayBuffer()) })));
}

const textField = (form: FormData, name: string): string => {
  const v = form.get(name);
  if (v !== null && typeof v !== 'string') throw HttpError.invalid([{ field: name, message: `${name} must be text` }]);
  if (v !== null && v.length > 100) throw HttpError.invalid([{ field: name, message: `${name} must be at most 100 characters` }]);
  return v ?? '';
};

export async function registerUploadsRoutes(app: FastifyInstance, { client }: { client: UploadsClient }): Promise<void> {
  addSchemas(app, [
    TransactionSummarySchema,
    UploadSuggestionSchema,
    UploadSchema,
    FailedFileSchema,
    UploadResultSchema,
    UploadPageMetaSchema,
    UploadListSchema,
    UploadAnswerSchema,
    UpdateUploadBodySchema,
    MatchUploadBodySchema,
  ]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['uploads'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };
  const idempotencyKeyOf = (req: FastifyRequest) => {
    const v = req.headers['idempotency-key'];
    return typeof v === 'string' ? v : '';
  };

  app.get<{
    Querystring: { uploadType?: string; receiptStatus?: string; startDate?: string; endDate?: string; transactionId?: string; page?: number; take?: number };
  }>(
    '/workspace-uploads',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listWorkspaceUploads',
        summary: "The workspace's uploads, newest first",
        querystring: UPLOAD_LIST_QUERY,
        response: responses(200, ref(UploadListSchema)),
      },
    },
    async (req) => {
      const q = req.query;
      const r = await client.listUploads(
        {
          uploadTypes: list(q.uploadType),
          receiptStatuses: list(q.receiptStatus),
          startDate: q.startDate ?? '',
          endDate: q.endDate ?? '',
          transactionId: q.transactionId ?? '',
          page: q.page,
          take: q.take,
        },
        headers(req),
      );
      return { data: r.data.map(uploadJson), meta: r.meta };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/workspace-uploads/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getWorkspaceUpload',
        summary: 'One upload, with a fresh signedUrl',
        params: idParams,
        response: responses(200, ref(UploadSchema)),
      },
    },
    async (req) => uploadJson((await client.getUpload({ id: req.params.id }, headers(req))).upload),
  );

  app.patch<{ Params: { id: string }; Body: { merchantName?: string; dateTime?: string; amount?: number } }>(
    '/workspace-uploads/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateWorkspaceUpload',
        summary: "A receipt's merchantName, dateTime and amount; a receipt is matched again with them",
        params: idParams,
        body: ref(UpdateUploadBodySchema),
        response: responses(200, ref(UploadAnswerSchema)),
      },
    },
    async (req) => {
      const b = req.body ?? {};
      const amountCents = withAmounts((a) => a.cents('amount', b.amount));
      const r = await client.updateUpload({ id: req.params.id, merchantName: b.merchantName, dateTime: b.dateTime, amountCents }, headers(req));
      return { message: r.message, upload: uploadJson(r.upload) };
    },
  );

  app.post<{ Params: { id: string }; Body: { transactionId: string } }>(
    '/workspace-uploads/:id/match',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'matchWorkspaceUpload',
        summary: 'Match an upload to a bank transaction by hand',
        params: idParams,
        body: ref(MatchUploadBodySchema),
        response: responses(200, ref(UploadAnswerSchema)),
      },
    },
    async (req) => {
      const r = await client.matchUpload({ id: req.params.id, transactionId: req.body.transactionId }, headers(req));
      return { message: r.message, upload: uploadJson(r.upload) };
    },
  );

  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_req, body, done) => done(null, body));
    const uploadRoute = (path: string, operationId: string, summary: string, fixedType: 'bill' | 'invoice' | null) =>
      scope.post<{ Body: Buffer }>(
        path,
        {
          config: WRITE,
          bodyLimit: UPLOAD_BODY_LIMIT,
          schema: {
            ...common,
            operationId,
            summary,
            consumes: ['multipart/form-data'],
            description: `multipart/form-data: up to ${MAX_FILES} files (field "files"), each jpg, jpeg, png or pdf by its content and at most 10 MB. A file that cannot be kept is answered in results.failedFiles (naming it) and leaves nothing behind; when none can, a 400 names "files". An Idempotency-Key header makes a retry answer the first result.`,
            response: responses(200, ref(UploadResultSchema)),
          },
        },
        async (req) => {
          const form = await formOf(req);
          const files = await filesOf(form);
          const uploadType = fixedType ?? (textField(form, 'uploadType') || 'receipt');
          const transactionId = fixedType ? '' : textField(form, 'transactionId');
          const r = await client.createUploads({ uploadType, files, transactionId, idempotencyKey: idempotencyKeyOf(req) }, headers(req));
          return {
            message: r.message,
            results: { uploadedFiles: r.uploadedFiles.map(uploadJson), failedFiles: r.failedFiles.map((f) => ({ fileName: f.fileName, reason: f.reason })) },
          };
        },
      );
    uploadRoute('/workspace-uploads/bill', 'uploadBills', 'Upload bills (files of type bill)', 'bill');
    uploadRoute('/workspace-uploads/invoice', 'uploadInvoices', 'Upload invoices (files of type invoice)', 'invoice');
    uploadRoute(
      '/workspace-uploads',
      'uploadWorkspaceFiles',
      'Upload receipts or other files (uploadType receipt (default) or file; transactionId attaches a receipt to that transaction)',
      null,
    );
  });
}
