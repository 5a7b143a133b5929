// The client's multipart upload through XMLHttpRequest (decision 0029: fetch reports no upload progress): headers,
// progress events, the answer, the error shape and the 401 handling as `request`'s.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, jobOfBatch, refusedEach, uploadsApi, type Job } from '../src/index';

type Listener = (e: { loaded: number; total: number; lengthComputable: boolean }) => void;

class FakeXhr {
  static last: FakeXhr | null = null;
  static answer: { status: number; body: string } = { status: 200, body: '{}' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown = null;
  status = 0;
  responseText = '';
  private listeners = new Map<string, (() => void)[]>();
  readonly progress: Listener[] = [];
  upload = { addEventListener: (_type: string, l: Listener) => this.progress.push(l) };
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  addEventListener(type: string, l: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  abort() {
    for (const l of this.listeners.get('abort') ?? []) l();
  }
  send(body: unknown) {
    this.sent = body;
    for (const l of this.progress) l({ loaded: 50, total: 200, lengthComputable: true });
    for (const l of this.progress) l({ loaded: 200, total: 200, lengthComputable: true });
    this.status = FakeXhr.answer.status;
    this.responseText = FakeXhr.answer.body;
    for (const type of ['load', 'loadend']) for (const l of this.listeners.get(type) ?? []) l();
  }
}

afterEach(() => vi.unstubAllGlobals());

function client(onUnauthorized = () => undefined as boolean | void) {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return createApiClient({ baseUrl: 'http://api.test/', getToken: () => 'tok', getWorkspaceId: () => 'ws-1', onUnauthorized });
}

describe('client.upload', () => {
  it('POSTs the form with the bearer token, workspace and Idempotency-Key, reports progress and answers the body', async () => {
    FakeXhr.answer = { status: 200, body: JSON.stringify({ message: 'Bill uploaded successfully.', results: { uploadedFiles: [], failedFiles: [] } }) };
    const form = new FormData();
    form.append('files', new Blob(['%PDF-1.4']), 'a.pdf');
    const progress: [number, number][] = [];
    const answer = await client().upload('/workspace-uploads/bill', {
      form,
      idempotencyKey: 'k-1',
      onProgress: (s, t) => progress.push([s, t]),
    });
    const xhr = FakeXhr.last!;
    expect([xhr.method, xhr.url]).toEqual(['POST', 'http://api.test/workspace-uploads/bill']);
    expect(xhr.headers).toMatchObject({ authorization: 'Bearer tok', 'x-workspace-id': 'ws-1', 'idempotency-key': 'k-1' });
    expect(xhr.headers['content-type']).toBeUndefined();
    expect(xhr.sent).toBe(form);
    expect(progress).toEqual([
      [50, 200],
      [200, 200],
    ]);
    expect(answer.message).toBe('Bill uploaded successfully.');
  });

  it('a refusal is an ApiError naming the field, as request() reads it; a 401 reaches onUnauthorized', async () => {
    FakeXhr.answer = { status: 400, body: JSON.stringify({ message: 'Bad Request', errors: [{ field: 'files', message: 'files is required' }] }) };
    const refused = await client()
      .upload('/workspace-uploads', { form: new FormData() })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect([(refused as ApiError).statusCode, (refused as ApiError).field, (refused as ApiError).message]).toEqual([400, 'files', 'files is required']);
    FakeXhr.answer = { status: 401, body: JSON.stringify({ message: 'Unauthorized' }) };
    const unauthorized = vi.fn(() => true);
    const e401 = (await client(unauthorized)
      .upload('/workspace-uploads', { form: new FormData() })
      .catch((e: unknown) => e)) as ApiError;
    expect(unauthorized).toHaveBeenCalledOnce();
    expect(e401.handled).toBe(true);
  });
});

describe('the job of a batch', () => {
  const job = (id: string, type: string, uploadType: string | null): Job => ({
    id,
    type,
    status: 'active',
    order: 0,
    attempts: 0,
    failedReason: null,
    createdOn: '',
    finishedOn: null,
    data: { requestId: id, accountId: '', transactionPushed: 0, totalTransactions: 2, uploadType },
  });
  it('is the bulk-upload job of that type that was not listed before the upload', () => {
    const jobs = [
      job('new-receipt', 'bulk upload', 'receipt'),
      job('new-bill', 'bulk upload', 'bill'),
      job('old-bill', 'bulk upload', 'bill'),
      job('sync', 'transaction-sync', null),
    ];
    expect(jobOfBatch(jobs, new Set(['old-bill']), 'bill')?.id).toBe('new-bill');
    expect(jobOfBatch(jobs, new Set(['old-bill', 'new-bill']), 'bill')).toBeNull();
    expect(jobOfBatch(jobs, new Set(), 'invoice')).toBeNull();
  });
});

describe('a batch the server refuses whole', () => {
  it("answers each file's reason from the 400's message, as failedFiles", async () => {
    const message = 'a.pdf is not a jpg, jpeg, png or pdf file; big scan.png is larger than 10 MB';
    FakeXhr.answer = { status: 400, body: JSON.stringify({ message: 'Bad Request', errors: [{ field: 'files', message }] }) };
    const files = [new File(['MZ'], 'a.pdf'), new File(['x'], 'big scan.png')];
    const r = await uploadsApi.upload(client(), { kind: 'receipt', files });
    expect(r.results).toEqual({
      uploadedFiles: [],
      failedFiles: [
        { fileName: 'a.pdf', reason: 'a.pdf is not a jpg, jpeg, png or pdf file' },
        { fileName: 'big scan.png', reason: 'big scan.png is larger than 10 MB' },
      ],
    });
  });
  it('any other refusal stays an error', async () => {
    expect(refusedEach(['a.pdf'], 'files is required')).toBeNull();
    FakeXhr.answer = {
      status: 400,
      body: JSON.stringify({ message: 'Bad Request', errors: [{ field: 'files', message: 'files can hold at most 20 files' }] }),
    };
    await expect(uploadsApi.upload(client(), { kind: 'bill', files: [new File(['%PDF'], 'a.pdf')] })).rejects.toBeInstanceOf(ApiError);
  });
});
