import { Code, ConnectError } from '@connectrpc/connect';
import type { Upload } from '@ledgerline/proto/documents/v1/uploads_pb';
import type { Comment, Receipt } from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, WRITE, READ } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { ErrorResponseSchema, ref, responses, WORKSPACE_HEADER_SCHEMA, BEARER } from '../../http/schemas.js';
import type { IdentityClient } from '../../identity/client.js';
import type { UploadsClient } from '../../documents/client.js';
import type { LedgerClient } from '../client.js';

/** A file part of a parsed multipart body. */
interface FormFile {
  name: string;
  type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const TAGS = ['ledger'] as const;
const text = { type: 'string', maxLength: 4000 } as const;

/** Receipts: at most 5 files of 10 MB (the documents service checks each file; this only bounds the request). */
const MAX_FILES = 5;
const UPLOAD_BODY_LIMIT = MAX_FILES * 10 * 1024 * 1024 + 1024 * 1024;

/** A receipt the ledger stored before receipts became uploads (read only; decision 0031). */
const legacyReceiptJson = (r: Receipt) => ({
  id: r.id,
  transactionId: r.transactionId,
  fileName: r.fileName,
  contentType: r.contentType,
  sizeBytes: Number(r.sizeBytes),
  uploadType: 'receipt',
  url: `/transactions/receipts/${r.id}/file`,
  dateTime: r.createdAt,
  uploadedBy: { id: r.uploadedBy, name: r.uploadedByName },
});
/** A receipt upload of the documents service (type receipt, matched to the transaction) as the drawer shows it. */
const receiptJson = (u: Upload, transactionId: string, names: ReadonlyMap<string, string>) => ({
  id: u.id,
  transactionId: u.matchedTransaction?.id || transactionId,
  fileName: u.fileName,
  contentType: u.contentType,
  sizeBytes: Number(u.sizeBytes),
  uploadType: 'receipt',
  url: `/transactions/receipts/${u.id}/file`,
  dateTime: u.createdAt,
  uploadedBy: { id: u.createdBy, name: names.get(u.createdBy) ?? '' },
});
const isNotFound = (err: unknown) => err instanceof ConnectError && err.code === Code.NotFound;
const commentJson = (c: Comment) => ({
  id: c.id,
  transactionId: c.transactionId,
  comment: c.comment,
  user: { id: c.userId, name: c.userName },
  taggedUsers: c.taggedUsers.map((t) => ({ id: t.id, name: t.name })),
  createdAt: c.createdAt,
});

const ReceiptJsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    transactionId: { type: 'string' },
    fileName: { type: 'string' },
    contentType: { type: 'string' },
    sizeBytes: { type: 'integer' },
    uploadType: { type: 'string' },
    url: { type: 'string', description: 'GET it (with the bearer token) for the file; ?download=1 for an attachment.' },
    dateTime: { type: 'string' },
    uploadedBy: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] },
  },
  required: ['id', 'transactionId', 'fileName', 'contentType', 'sizeBytes', 'uploadType', 'url', 'dateTime', 'uploadedBy'],
} as const;
const UserRefSchema = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] } as const;
const TaggableUserSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    former: { type: 'boolean', description: 'No longer a member (listed with includeFormer=true only, for the names of earlier work).' },
  },
  required: ['id', 'name', 'email', 'former'],
} as const;
const CommentJsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    transactionId: { type: 'string' },
    comment: { type: 'string' },
    user: UserRefSchema,
    taggedUsers: { type: 'array', items: UserRefSchema },
    createdAt: { type: 'string' },
  },
  required: ['id', 'transactionId', 'comment', 'user', 'taggedUsers', 'createdAt'],
} as const;

/** A user's name as identity knows it, remembered a minute (the ledger records who wrote what). */
function actorLookup(identity: IdentityClient) {
  const cache = new Map<string, { at: number; actor: { name: string; email: string } }>();
  return async (req: FastifyRequest) => {
    const auth = authOf(req);
    const hit = cache.get(auth.userId);
    if (hit && Date.now() - hit.at < 60_000) return hit.actor;
    try {
      const u = (await identity.getMe({ sessionToken: auth.token })).user;
      const actor = { name: [u?.firstName, u?.lastName].filter((s) => s).join(' '), email: u?.email ?? '' };
      if (cache.size > 10_000) cache.clear();
      cache.set(auth.userId, { at: Date.now(), actor });
      return actor;
    } catch {
      return undefined; // the name is a nicety; the comment or receipt is kept without it
    }
  };
}

/**
 * The transaction drawer (issue #13, spec §7): POST /transactions/receipt and /transactions/comment, and the
 * reads the drawer shows (its receipts, the file of one, its comments, whom a comment can tag). A receipt is an
 * upload of the documents service of type receipt matched to the transaction (decision 0031): kept in the object
 * store, listed in GET /workspace-uploads; the ledger records the attachment in the transaction's trail and still
 * answers the receipts it stored itself before. Comments stay with the ledger until a notifications service exists.
 * GET /transactions/audit-logs (in routes/ledger.ts) answers the history.
 */
export async function registerTransactionDrawerRoutes(
  app: FastifyInstance,
  { ledger, identity, uploads }: { ledger: LedgerClient; identity: IdentityClient; uploads: UploadsClient },
): Promise<void> {
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };
  const actorOf = actorLookup(identity);

  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.post<{ Body: Buffer }>(
      '/transactions/receipt',
      {
        config: WRITE,
        bodyLimit: UPLOAD_BODY_LIMIT,
        schema: {
          ...common,
          operationId: 'uploadReceipts',
          summary: `Attach receipts to a transaction: multipart/form-data with transactionId and up to ${MAX_FILES} files (field "files"; jpg, jpeg, png or pdf by content, at most 10 MB each). Files that cannot be receipts are answered in failedFiles; when none can, a 400 names "files".`,
          consumes: ['multipart/form-data'],
          response: responses(200, {
            type: 'object',
            properties: {
              message: { type: 'string' },
              results: {
                type: 'object',
                properties: {
                  uploadedFiles: { type: 'array', items: ReceiptJsonSchema },
                  failedFiles: {
                    type: 'array',
                    items: { type: 'object', properties: { fileName: { type: 'string' }, reason: { type: 'string' } }, required: ['fileName', 'reason'] },
                  },
                },
                required: ['uploadedFiles', 'failedFiles'],
              },
            },
            required: ['message', 'results'],
          }),
        },
      },
      async (req) => {
        const contentType = String(req.headers['content-type'] ?? '');
        if (!Buffer.isBuffer(req.body) || !contentType.startsWith('multipart/form-data'))
          throw HttpError.invalid([{ field: 'files', message: 'The request must be multipart/form-data with transactionId and files' }]);
        let form: FormData;
        try {
          form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': contentType } }).formData();
        } catch {
          throw HttpError.invalid([{ field: 'files', message: 'The request must be multipart/form-data with transactionId and files' }]);
        }
        const transactionId = form.get('transactionId');
        const problems = [];
        if (typeof transactionId !== 'string' || transactionId === '') problems.push({ field: 'transactionId', message: 'transactionId is required' });
        const entries = [...form.getAll('files'), ...form.getAll('file')];
        const files = entries.filter((f) => typeof f !== 'string') as unknown as FormFile[];
        if (files.length === 0) problems.push({ field: 'files', message: 'files is required' });
        else if (files.length > MAX_FILES) problems.push({ field: 'files', message: `files can hold at most ${MAX_FILES} files` });
        if (problems.length > 0) throw HttpError.invalid(problems);
        const txn = transactionId as string;
        const actor = await actorOf(req);
        // The documents service checks the transaction (another workspace's: 404), judges each file by its content,
        // stores it and matches it to the transaction, all or nothing per file.
        const r = await uploads.createUploads(
          {
            uploadType: 'receipt',
            transactionId: txn,
            files: await Promise.all(files.map(async (f) => ({ fileName: f.name, contentType: f.type, content: new Uint8Array(await f.arrayBuffer()) }))),
            idempotencyKey: typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : '',
          },
          headers(req),
        );
        // The trail records the attachment (once per receipt). The receipts are kept whatever happens here: a
        // failure leaves them without their trail entry and is logged, never answered as a failed upload.
        await ledger
          .recordReceiptsAttached(
            {
              transactionId: txn,
              receipts: r.uploadedFiles.map((u) => ({ id: u.id, fileName: u.fileName, contentType: u.contentType, sizeBytes: u.sizeBytes })),
              actor,
            },
            headers(req),
          )
          .catch((err: unknown) => req.log.warn({ err, transactionId: txn }, 'the ledger did not record the receipts in the transaction trail'));
        const names = new Map(actor?.name ? [[authOf(req).userId, actor.name]] : []);
        return {
          message: r.message,
          results: {
            uploadedFiles: r.uploadedFiles.map((u) => receiptJson(u, txn, names)),
            failedFiles: r.failedFiles.map((f) => ({ fileName: f.fileName, reason: f.reason })),
          },
        };
      },
    );
  });

  app.get<{ Querystring: { transactionId?: string } }>(
    '/transactions/receipts',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listTransactionReceipts',
        summary: "A transaction's receipts, oldest first",
        querystring: { type: 'object', properties: { transactionId: text } },
        response: responses(200, { type: 'object', properties: { data: { type: 'array', items: ReceiptJsonSchema } }, required: ['data'] }),
      },
    },
    async (req) => {
      const transactionId = req.query.transactionId ?? '';
      if (transactionId === '') throw HttpError.invalid([{ field: 'transactionId', message: 'transactionId is required' }]);
      // The uploads matched to the transaction (another workspace's transaction: 404), the ledger's older receipts,
      // and the names of the members who uploaded them (the ledger remembers whom it has seen act).
      const found = await uploads.listUploads(
        { uploadTypes: ['receipt'], receiptStatuses: [], startDate: '', endDate: '', transactionId, take: 100 },
        headers(req),
      );
      const [legacy, members] = await Promise.all([
        ledger.listReceipts({ transactionId }, headers(req)),
        ledger.listTaggableUsers({ actor: await actorOf(req), includeFormer: true }, headers(req)).then(
          (m) => m.users,
          () => [],
        ),
      ]);
      const names = new Map(members.map((m) => [m.id, m.name]));
      const current = [...found.data]
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map((u) => receiptJson(u, transactionId, names));
      return { data: [...legacy.receipts.map(legacyReceiptJson), ...current] };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { download?: string } }>(
    '/transactions/receipts/:id/file',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getTransactionReceiptFile',
        summary: "A receipt's file (inline; ?download=1 as an attachment)",
        params: { type: 'object', properties: { id: text }, required: ['id'] },
        querystring: { type: 'object', properties: { download: text } },
        response: {
          200: { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          default: ref(ErrorResponseSchema),
        },
      },
    },
    async (req, reply) => {
      // A receipt upload of the documents service; else one the ledger stored before receipts became uploads.
      const r = await uploads.getUploadFile({ id: req.params.id }, headers(req)).then(
        (u) => ({ fileName: u.upload?.fileName, contentType: u.upload?.contentType, content: u.content }),
        async (err: unknown) => {
          if (!isNotFound(err)) throw err;
          const old = await ledger.getReceiptFile({ id: req.params.id }, headers(req));
          return { fileName: old.receipt?.fileName, contentType: old.receipt?.contentType, content: old.content };
        },
      );
      const name = (r.fileName ?? 'receipt').replace(/[^\x20-\x7e]/g, '_');
      const disposition = req.query.download === '1' ? 'attachment' : 'inline';
      return reply
        .type(r.contentType ?? 'application/octet-stream')
        .header('content-disposition', `${disposition}; filename="${name}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(r.content));
    },
  );

  app.post<{ Body: { transactionId?: string; comment?: string; taggedUsers?: string[] } }>(
    '/transactions/comment',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'postTransactionComment',
        summary: 'Comment on a transaction, tagging members of the workspace',
        body: {
          type: 'object',
          properties: { transactionId: text, comment: text, taggedUsers: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 100 } } },
        },
        response: responses(200, { type: 'object', properties: { message: { type: 'string' }, comment: CommentJsonSchema }, required: ['message', 'comment'] }),
      },
    },
    async (req) => {
      const r = await ledger.postComment(
        { transactionId: req.body.transactionId ?? '', comment: req.body.comment ?? '', taggedUsers: req.body.taggedUsers ?? [], actor: await actorOf(req) },
        headers(req),
      );
      if (!r.comment) throw new Error('the ledger answered no comment');
      return { message: r.message, comment: commentJson(r.comment) };
    },
  );

  app.get<{ Querystring: { transactionId?: string } }>(
    '/transactions/comments',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listTransactionComments',
        summary: "A transaction's comments, oldest first",
        querystring: { type: 'object', properties: { transactionId: text } },
        response: responses(200, { type: 'object', properties: { data: { type: 'array', items: CommentJsonSchema } }, required: ['data'] }),
      },
    },
    async (req) => ({ data: (await ledger.listComments({ transactionId: req.query.transactionId ?? '' }, headers(req))).comments.map(commentJson) }),
  );

  app.get<{ Querystring: { includeFormer?: string } }>(
    '/transactions/taggable-users',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listTaggableUsers',
        summary: 'Members of the workspace a comment can tag (every current member, by name, with their email)',
        querystring: { type: 'object', properties: { includeFormer: { type: 'string', enum: ['true', 'false'] } } },
        response: responses(200, { type: 'object', properties: { data: { type: 'array', items: TaggableUserSchema } }, required: ['data'] }),
      },
    },
    async (req) => ({
      data: (await ledger.listTaggableUsers({ actor: await actorOf(req), includeFormer: req.query.includeFormer === 'true' }, headers(req))).users.map((u) => ({
        id: u.id,
        name: u.name,
        email: u.email,
        former: u.former,
      })),
    }),
  );
}
