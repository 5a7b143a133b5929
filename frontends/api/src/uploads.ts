// Uploads (spec documents-parties-integrations §3 "Receipt or document upload", §7 Uploads, §8 upload messages;
// platform-core §3 allowed receipt types; issue #19): the generated OpenAPI shapes, the browser's pre-check of a file
// (the server judges the content and stays the final word), one typed call per route and the bulk-upload job of
// GET /jobs. The hooks are in uploads-hooks.ts.
import type { ApiClient } from './client';
import { isApiError } from './errors';
import type { Job, OperationBody, OperationResult, Schemas } from './types';

export type WorkspaceUpload = Schemas['WorkspaceUpload'];
export type UploadResult = Schemas['UploadResult'];
export type UploadFailedFile = Schemas['UploadFailedFile'];
export type UploadList = Schemas['UploadList'];
export type UploadTransactionSummary = Schemas['UploadTransactionSummary'];
export type UploadMatchSuggestion = Schemas['UploadMatchSuggestion'];
export type UploadUpdateBody = OperationBody<'updateWorkspaceUpload'>;
/** The answer of an edit or a match: the upload as it now is. */
export type UploadChanged = OperationResult<'updateWorkspaceUpload'>;

/** The kinds of upload (spec §3 uploadType). Bills and invoices have their own routes. */
export type UploadKind = 'receipt' | 'file' | 'bill' | 'invoice';

/** The receiptStatus filter values GET /workspace-uploads accepts, in the order the tab offers them. */
export const RECEIPT_STATUSES = ['matched', 'review', 'unmatched'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/** Spec platform-core §3: jpg, jpeg, png, pdf; 10 MB each (issue #19). The server checks the bytes, not the name. */
export const UPLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'pdf'] as const;
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** At most this many files in one request (the gateway's bound). */
export const UPLOAD_MAX_FILES = 20;

/** Spec §8 success messages of the bill and invoice uploads, word for word. */
export const UPLOAD_MESSAGES = { bill: 'Bill uploaded successfully.', invoice: 'Invoice uploaded successfully.' } as const;

/** The queue name of the bulk-upload job in GET /jobs (platform-core §3 Job). */
export const BULK_UPLOAD_QUEUE = 'bulk upload';

const PATHS = {
  receipt: '/workspace-uploads',
  file: '/workspace-uploads',
  bill: '/workspace-uploads/bill',
  invoice: '/workspace-uploads/invoice',
} as const satisfies Record<UploadKind, string>;

export interface UploadFilesInput {
  kind: UploadKind;
  files: readonly File[];
  /** Bytes of the whole request sent so far (the files lie in it in order). */
  onProgress?: (sent: number, total: number) => void;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface UploadListFilter {
  uploadType?: UploadKind;
  receiptStatus?: readonly ReceiptStatus[];
  page?: number;
  take?: number;
}

export const uploadsApi = {
  list: (client: ApiClient, f: UploadListFilter, signal?: AbortSignal): Promise<UploadList> =>
    client.get('/workspace-uploads', {
      params: { query: { uploadType: f.uploadType, receiptStatus: f.receiptStatus, page: f.page, take: f.take ?? 100 } },
      signal,
    }),
  get: (client: ApiClient, id: string, signal?: AbortSignal): Promise<WorkspaceUpload> =>
    client.get('/workspace-uploads/{id}', { params: { path: { id } }, signal }),
  update: (client: ApiClient, id: string, body: UploadUpdateBody) => client.patch('/workspace-uploads/{id}', { params: { path: { id } }, body }),
  match: (client: ApiClient, id: string, transactionId: string) =>
    client.post('/workspace-uploads/{id}/match', { params: { path: { id } }, body: { transactionId } }),
  /**
   * POST the files as one multipart request (one batch, one bulk-upload job), with the upload's progress. When the
   * server refuses every file (a 400 naming `files`), the answer is the same result shape with each file's reason.
   */
  upload: async (client: ApiClient, input: UploadFilesInput): Promise<UploadResult> => {
    const form = new FormData();
    if (input.kind === 'receipt' || input.kind === 'file') form.append('uploadType', input.kind);
    for (const f of input.files) form.append('files', f, f.name);
    try {
      return await client.upload(PATHS[input.kind], {
        form,
        ...(input.onProgress ? { onProgress: input.onProgress } : {}),
        ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
    } catch (error) {
      const refused =
        isApiError(error) && error.statusCode === 400 && error.field === 'files'
          ? refusedEach(
              input.files.map((f) => f.name),
              error.message,
            )
          : null;
      if (refused === null) throw error;
      return { message: error instanceof Error ? error.message : '', results: { uploadedFiles: [], failedFiles: refused } };
    }
  },
};

/**
 * Each file's reason in the message of a 400 that refused them all (the server joins the reasons with '; ', each
 * starting with its file's name), or null when some file has none (another 400: no files, too many).
 */
export function refusedEach(names: readonly string[], message: string): UploadFailedFile[] | null {
  const reasons = message.split('; ');
  const out: UploadFailedFile[] = [];
  for (const name of names) {
    const reason = reasons.find((r) => r.startsWith(`${name} `));
    if (reason === undefined) return null;
    out.push({ fileName: name, reason });
  }
  return out;
}

/** The bulk-upload jobs among GET /jobs's answer. */
export const bulkUploadJobs = (jobs: readonly Job[]): Job[] => jobs.filter((j) => j.type === BULK_UPLOAD_QUEUE);

/**
 * The job a batch made: a bulk-upload job of that upload type that was not in the list before the upload. Null until
 * GET /jobs shows it.
 */
export function jobOfBatch(jobs: readonly Job[], before: ReadonlySet<string>, kind: UploadKind): Job | null {
  return bulkUploadJobs(jobs).find((j) => !before.has(j.id) && j.data.uploadType === kind) ?? null;
}
