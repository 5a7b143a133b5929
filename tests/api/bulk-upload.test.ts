// The bulk-upload job through the gateway (issue #19 items 3 and 5): three bills rendered to PDF by the reading
// corpus are uploaded in one request; GET /jobs shows the 'bulk upload' job of the batch reaching completed with its
// progress counted in files; GET /drafts lists one draft per file with the vendor, date, due date, invoice number and
// total printed on it, its uploadId and the batch's bulkUploadId; each upload is marked read. A file the readers
// cannot open becomes a draft without fields and with the reason. Another workspace sees neither job nor drafts.
import { startPlaidSandbox, type PlaidSandbox } from '@ledgerline/plaid-sandbox';
import { bankingConfigSchema, bankingMigrations, createBankingService, type BankingService } from '@ledgerline/banking';
import { createLogger } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually, type TestDatabase } from '@ledgerline/platform/testing';
import { startS3Sandbox, type S3Sandbox } from '@ledgerline/s3-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDoc, renderNoisyPng, renderPdf, sameName, type CorpusDoc } from '../../services/documents/test/reading-corpus.js';
import { startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

const BUCKET = 'bulk-upload-test';
let s3: S3Sandbox;
let plaid: PlaidSandbox;
let bankingDb: TestDatabase;
let banking: BankingService;
let s: DocumentsSystem;
let a: Tenant;
let b: Tenant;

async function upload(path: string, tn: Tenant, files: { name: string; bytes: Buffer; type: string }[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = await fetch(`${s.gatewayUrl}${path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId },
    signal: AbortSignal.timeout(30_000),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const bulkJobs = async (tn: Tenant, query = ''): Promise<Json[]> => {
  const r = await s.api('GET', `/jobs${query}`, { tenant: tn });
  expect(r.status, r.text).toBe(200);
  return (r.body.jobs as Json[]).filter((j) => j.type === 'bulk upload');
};

beforeAll(async () => {
  s3 = await startS3Sandbox({ port: 0 });
  // GET /jobs is the banking service's list with the documents service's jobs added: the real banking service answers it.
  plaid = await startPlaidSandbox({ port: 0 });
  bankingDb = await createTestDatabase('banking', bankingMigrations);
  const bankingConfig = bankingConfigSchema.parse({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    BANKING_PORT: '0',
    BANKING_DATABASE_URL: bankingDb.appUrl,
    PLAID_BASE_URL: plaid.url,
    PLAID_CLIENT_ID: plaid.clientId,
    PLAID_SECRET: plaid.secret,
  });
  // Its own bus namespace: nothing of banking's reaches the documents system's ledger.
  const bankingBus = await createTestBus('bulk-upload-banking');
  banking = await createBankingService(
    { ...bankingConfig, NATS_NAMESPACE: bankingBus.namespace },
    { db: bankingDb.appDb, bus: bankingBus, logger: createLogger('banking', 'silent') },
  );
  const bankingUrl = await banking.listen();
  s = await startDocumentsSystem('bulk-upload', {
    documentsEnv: {
      DOCUMENTS_S3_ENDPOINT: s3.url,
      DOCUMENTS_S3_BUCKET: BUCKET,
      DOCUMENTS_S3_REGION: s3.region,
      DOCUMENTS_S3_ACCESS_KEY_ID: s3.accessKeyId,
      DOCUMENTS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    gatewayEnv: { BANKING_URL: bankingUrl },
  });
  a = s.tenant();
  b = s.tenant();
  stopBankingBus = () => bankingBus.close();
}, 180_000);
let stopBankingBus: () => Promise<void> = async () => undefined;
afterAll(async () => {
  await s?.stop();
  await banking?.stop();
  await bankingDb?.drop();
  await stopBankingBus();
  await plaid?.close();
  await s3?.close();
});

describe('bulk upload of bills', () => {
  it('reads each uploaded bill once into a draft with its vendor, dates, number and total; GET /jobs shows the job completed', async () => {
    const docs: CorpusDoc[] = [0, 1, 2].map((n) => corpusDoc(19, n * 3 + 1, ['bill']));
    const files = await Promise.all(docs.map(async (d, i) => ({ name: `bill-${i + 1}.pdf`, bytes: await renderPdf(d), type: 'application/pdf' })));
    const r = await upload('/workspace-uploads/bill', a, files);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Bill uploaded successfully.');
    const uploaded: Json[] = r.body.results.uploadedFiles;
    expect(uploaded).toHaveLength(3);

    const job = await expectEventually(
      async () => {
        const jobs = await bulkJobs(a);
        expect(jobs).toHaveLength(1);
        expect(jobs[0].status).toBe('completed');
        return jobs[0];
      },
      { timeoutMs: 60_000 },
    );
    expect(job).toMatchObject({
      type: 'bulk upload',
      data: { requestId: job.id, transactionPushed: 3, totalTransactions: 3, uploadType: 'bill' },
      failedReason: null,
    });
    expect(job.finishedOn).not.toBeNull();
    expect(await bulkJobs(a, '?status=completed')).toHaveLength(1);
    expect(await bulkJobs(a, '?status=waiting,active')).toHaveLength(0);
    // Another workspace: none of this one's jobs.
    expect(await bulkJobs(b)).toHaveLength(0);

    const list = await s.api('GET', `/drafts?bulkUploadId=${job.id}&take=100`, { tenant: a });
    expect(list.status, list.text).toBe(200);
    const drafts: Json[] = list.body.data ?? list.body.drafts;
    expect(drafts).toHaveLength(3);
    for (const [i, d] of docs.entries()) {
      const draft = drafts.find((x) => x.metaData.uploadId === uploaded[i].id);
      expect(draft, `draft of ${files[i]!.name}`).toBeDefined();
      expect(draft).toMatchObject({ entityType: 'bill', draftType: 'bulk_upload', bulkUploadId: job.id });
      const m = draft.metaData;
      expect(sameName(m.extracted.billerName, d.merchant), `${m.extracted.billerName} vs ${d.merchant}`).toBe(true);
      expect(m.billDate).toBe(d.date);
      expect(m.dueDate).toBe(d.dueDate);
      expect(m.invoiceCode).toBe(d.invoiceNumber);
      expect(m.lineItems.length).toBeGreaterThan(0);
      expect(m.extracted.total).toBe(d.total);
    }
    // Each upload is marked read; each file drafted exactly once.
    for (const u of uploaded) {
      const g = await s.api('GET', `/workspace-uploads/${u.id}`, { tenant: a });
      expect(g.body.upload?.readStatus ?? g.body.readStatus).toBe('read');
    }
    const counts = (
      await s.documentsDb.adminDb.raw("select meta_data->>'uploadId' as u, count(*)::int as n from drafts where workspace_id = ? group by 1", [a.workspaceId])
    ).rows as { u: string; n: number }[];
    expect(counts.map((c) => c.n)).toEqual([1, 1, 1]);
    expect((await s.api('GET', `/drafts?bulkUploadId=${job.id}`, { tenant: b })).body.data ?? []).toHaveLength(0);
  }, 120_000);

  it('a PDF without text becomes a draft without fields that says why; the job counts it failed and still completes', async () => {
    const scan = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const good = await renderPdf(corpusDoc(19, 40, ['invoice']));
    const r = await upload('/workspace-uploads/invoice', a, [
      { name: 'scan.pdf', bytes: scan, type: 'application/pdf' },
      { name: 'inv.pdf', bytes: good, type: 'application/pdf' },
    ]);
    expect(r.status).toBe(200);
    const [scanUpload] = r.body.results.uploadedFiles as Json[];
    const job = await expectEventually(
      async () => {
        const jobs = (await bulkJobs(a)).filter((j) => j.data.uploadType === 'invoice');
        expect(jobs).toHaveLength(1);
        expect(jobs[0].status).toBe('completed');
        return jobs[0];
      },
      { timeoutMs: 60_000 },
    );
    expect(job.data).toMatchObject({ transactionPushed: 2, totalTransactions: 2 });
    expect(job.failedReason).toContain('scan.pdf');
    const drafts: Json[] = (await s.api('GET', `/drafts?bulkUploadId=${job.id}`, { tenant: a })).body.data;
    expect(drafts).toHaveLength(2);
    const blank = drafts.find((d) => d.metaData.uploadId === scanUpload.id);
    expect(blank.entityType).toBe('invoice');
    expect(blank.metaData.invoiceDate).toBeUndefined();
    expect(blank.metaData.lineItems).toBeUndefined();
    expect(blank.metaData.extracted.error).toContain('scan.pdf');
  }, 120_000);

  it('a worker whose database connection dies mid-file (as when its process is killed) loses nothing: each file is drafted once', async () => {
    const c = s.tenant();
    // Photographed-looking PNGs: OCR takes seconds per file, so the claim's transaction is open long enough to kill.
    const files = await Promise.all(
      [50, 51, 52].map(async (n, i) => ({
        name: `photo-${i + 1}.png`,
        bytes: (await renderNoisyPng(await renderPdf(corpusDoc(19, n, ['bill'])), 19, n)).png,
        type: 'image/png',
      })),
    );
    const r = await upload('/workspace-uploads/bill', c, files);
    expect(r.status).toBe(200);
    const ids = (r.body.results.uploadedFiles as Json[]).map((u) => u.id as string);
    // Kill the connection of the worker that holds a file of this batch, twice (two files), as a crash would. A worker
    // reading holds only its claim's row lock (RowShareLock on the table); the uploads sweeper and an upload's own
    // transaction, which also write the table, hold RowExclusiveLock and must not be mistaken for one (killing one of
    // them failed no read, and the job was never retried).
    let killed = 0;
    // A killed process stays in pg_locks for a moment while it exits: it is not picked again.
    const gone: number[] = [];
    for (let round = 0; round < 2; round++) {
      const victim = await expectEventually(
        async () => {
          const rows = (
            await s.documentsDb.adminDb.raw(
              `select distinct l.pid, f.upload_id::text from pg_locks l join pg_stat_activity a on a.pid = l.pid, bulk_upload_files f
           where l.relation = 'bulk_upload_files'::regclass and l.mode = 'RowShareLock' and l.pid <> pg_backend_pid() and not (l.pid = any(?::int[])) and f.workspace_id = ? and f.status = 'waiting' and f.attempts = 0 and a.state like 'idle in transaction%'`,
              [gone, c.workspaceId],
            )
          ).rows as { pid: number; upload_id: string }[];
          expect(rows.length).toBeGreaterThan(0);
          return rows[0]!;
        },
        { timeoutMs: 60_000 },
      );
      const t = (await s.documentsDb.adminDb.raw('select pg_terminate_backend(?) as ok', [victim.pid])).rows[0] as { ok: boolean };
      gone.push(victim.pid);
      if (t.ok) killed += 1;
    }
    expect(killed).toBe(2);
    const job = await expectEventually(
      async () => {
        const jobs = await bulkJobs(c);
        expect(jobs).toHaveLength(1);
        expect(jobs[0].status).toBe('completed');
        return jobs[0];
      },
      { timeoutMs: 120_000 },
    );
    expect(job.data).toMatchObject({ transactionPushed: 3, totalTransactions: 3 });
    const counts = (
      await s.documentsDb.adminDb.raw("select meta_data->>'uploadId' as u, count(*)::int as n from drafts where workspace_id = ? group by 1 order by 1", [
        c.workspaceId,
      ])
    ).rows as { u: string; n: number }[];
    expect(counts).toEqual([...ids].sort().map((u) => ({ u, n: 1 })));
    const files2 = (await s.documentsDb.adminDb.raw('select status, attempts from bulk_upload_files where workspace_id = ?', [c.workspaceId])).rows as {
      status: string;
      attempts: number;
    }[];
    expect(files2.every((f) => f.status === 'done')).toBe(true);
    // Where the killed connection's error surfaces (in the reader's next query, or in its transaction while it reads)
    // decides whether the file is retried later (attempts + 1) or claimed again at once; either way every read that
    // started is recorded (bulk_upload_reads, the crash count), each file was read, and none is lost or drafted twice.
    const reads = (await s.documentsDb.adminDb.raw('select count(*)::int as n from bulk_upload_reads where workspace_id = ?', [c.workspaceId])).rows[0] as {
      n: number;
    };
    expect(reads.n).toBeGreaterThanOrEqual(3);
  }, 240_000);

  it('reads an uploaded receipt in the same job: its merchant, date and total are saved and it is marked read', async () => {
    const d = corpusDoc(19, 7, ['receipt']);
    const r = await upload('/workspace-uploads', b, [{ name: 'receipt.pdf', bytes: await renderPdf(d), type: 'application/pdf' }], { uploadType: 'receipt' });
    expect(r.status).toBe(200);
    const id = r.body.results.uploadedFiles[0].id as string;
    const job = await expectEventually(
      async () => {
        const jobs = (await bulkJobs(b)).filter((j) => j.data.uploadType === 'receipt');
        expect(jobs).toHaveLength(1);
        expect(jobs[0].status).toBe('completed');
        return jobs[0];
      },
      { timeoutMs: 60_000 },
    );
    expect(job.data).toMatchObject({ transactionPushed: 1, totalTransactions: 1 });
    const g = await s.api('GET', `/workspace-uploads/${id}`, { tenant: b });
    const u = g.body.upload ?? g.body;
    expect(u.readStatus).toBe('read');
    expect(u.dateTime).toBe(d.date);
    expect(u.amount).toBe(d.total);
    expect(sameName(u.merchantName, d.merchant), `${u.merchantName} vs ${d.merchant}`).toBe(true);
    // A receipt is no draft: the batch has none (the drafts API knows no such bulk upload).
    expect((await s.api('GET', `/drafts?bulkUploadId=${job.id}`, { tenant: b })).status).toBe(404);
    expect(Number((await s.documentsDb.adminDb.raw('select count(*)::int as n from drafts where workspace_id = ?', [b.workspaceId])).rows[0].n)).toBe(0);
  }, 120_000);
});
