// Uploads through the gateway (issue #19 items 1, 2, 4): files kept in the S3 sandbox through the official SDK,
// checked by content (an .exe renamed .pdf and an 11 MB png are refused, nothing stored), signed URLs that work and
// expire, bill and invoice messages, receipt matching (automatic, for review, by hand, from the transaction's
// receipt), the list's filters, two tenants and the Viewer, an idempotent retry, and the sweeper after a crash.
import { createHash, randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { expectEventually } from '@ledgerline/platform/testing';
import { startS3Sandbox, type S3Sandbox } from '@ledgerline/s3-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor } from '../../services/ledger/test/support.js';
import { startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

const BUCKET = 'uploads-test';
let s3: S3Sandbox;
let s: DocumentsSystem;
let a: Tenant;
let b: Tenant;

/** A real PNG (1×1, one grey pixel), padded with an ancillary chunk to `size` bytes when asked. */
function png(size = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 128]))),
    chunk('IEND', Buffer.alloc(0)),
  ];
  const base = Buffer.concat(parts);
  if (size <= base.length) return base;
  const pad = chunk('tEXt', Buffer.alloc(size - base.length - 12, 0x61));
  return Buffer.concat([parts[0]!, parts[1]!, pad, parts[2]!, parts[3]!]);
}
const pdf = (text: string) => Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const jpg = () =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0', 'latin1'), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);
/** A Windows executable's first bytes (MZ header, PE signature). */
const exe = () => {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
};

async function upload(
  path: string,
  tn: Tenant | { token: string; workspaceId: string },
  files: { name: string; bytes: Buffer; type?: string }[],
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${s.gatewayUrl}${path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId, ...headers },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: body as any, text };
}

const rowCount = async (workspaceId: string) =>
  Number((await s.documentsDb.adminDb.raw('select count(*)::int as n from uploads where workspace_id = ?', [workspaceId])).rows[0].n);
const objectsOf = (workspaceId: string) => s3.keys(BUCKET).filter((k) => k.startsWith(`workspaces/${workspaceId}/`));

/** Bank transactions booked by the ledger for the tenant, by (amount, date, descriptor): their ledger ids. */
async function bankTxns(tn: Tenant, list: { amountCents: number; date: string; name: string }[]): Promise<string[]> {
  const banking = bankingFor(s.bus, tn.workspaceId);
  const account = await banking.link();
  const external: string[] = [];
  for (const t of list)
    external.push(`ext-${(await banking.add(account, { amountCents: t.amountCents, date: t.date, name: t.name, merchantName: t.name })).slice(-8)}`);
  return expectEventually(
    async () => {
      const r = await s.ledger.client.listTransactions({ take: 100 }, s.ledger.as(tn.workspaceId));
      const ids = external.map((e) => r.data.find((t) => t.vendorTransactionId === e)?.id);
      expect(ids.every((id) => id !== undefined)).toBe(true);
      return ids as string[];
    },
    { timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  s3 = await startS3Sandbox({ port: 0 });
  s = await startDocumentsSystem('uploads', {
    documentsEnv: {
      DOCUMENTS_S3_ENDPOINT: s3.url,
      DOCUMENTS_S3_BUCKET: BUCKET,
      DOCUMENTS_S3_REGION: s3.region,
      DOCUMENTS_S3_ACCESS_KEY_ID: s3.accessKeyId,
      DOCUMENTS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      DOCUMENTS_SIGNED_URL_SECONDS: '120',
    },
  });
  a = s.tenant();
  b = s.tenant();
}, 120_000);
afterAll(async () => {
  await s?.stop();
  await s3?.close();
});

describe('bills and invoices', () => {
  it('POST /workspace-uploads/bill keeps the file privately and answers a signed URL that fetches it', async () => {
    const bytes = pdf('bill from Acme');
    const r = await upload('/workspace-uploads/bill', a, [{ name: 'acme-bill.pdf', bytes, type: 'application/pdf' }]);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Bill uploaded successfully.');
    expect(r.body.results.failedFiles).toEqual([]);
    const [u] = r.body.results.uploadedFiles;
    expect(u).toMatchObject({
      uploadType: 'bill',
      fileName: 'acme-bill.pdf',
      contentType: 'application/pdf',
      sizeBytes: bytes.length,
      workspaceId: a.workspaceId,
      url: `/workspace-uploads/${u.id}`,
      receiptStatus: 'unmatched',
      matchedOn: null,
    });
    // Private: the object is not readable without a signature.
    expect(objectsOf(a.workspaceId)).toContain(`workspaces/${a.workspaceId}/uploads/${u.id}.pdf`);
    expect((await fetch(u.signedUrl.split('?')[0])).status).toBe(403);
    const got = await fetch(u.signedUrl);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toContain('acme-bill.pdf');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
    expect(got.headers.get('etag')).toBe(`"${createHash('md5').update(bytes).digest('hex')}"`);
  });

  it('POST /workspace-uploads/invoice answers its message; a real PNG named .pdf is kept as the PNG it is', async () => {
    const r = await upload('/workspace-uploads/invoice', a, [
      { name: 'invoice-7.png', bytes: png() },
      { name: 'scan.pdf', bytes: png() },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Invoice uploaded successfully.');
    expect(r.body.results.uploadedFiles.map((u: { contentType: string; uploadType: string }) => [u.uploadType, u.contentType])).toEqual([
      ['invoice', 'image/png'],
      ['invoice', 'image/png'],
    ]);
  });
});

describe('refused files: a clear 400 naming the file, nothing stored', () => {
  it('an .exe renamed .pdf is refused by its content', async () => {
    const rows = await rowCount(a.workspaceId);
    const objects = objectsOf(a.workspaceId).length;
    const r = await upload('/workspace-uploads/bill', a, [{ name: 'invoice.pdf', bytes: exe(), type: 'application/pdf' }]);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'files', message: 'invoice.pdf is not a jpg, jpeg, png or pdf file' }]);
    expect(await rowCount(a.workspaceId)).toBe(rows);
    expect(objectsOf(a.workspaceId)).toHaveLength(objects);
  });

  it('an 11 MB png is refused (the limit is 10 MB)', async () => {
    const rows = await rowCount(a.workspaceId);
    const objects = objectsOf(a.workspaceId).length;
    const big = png(11 * 1024 * 1024);
    const r = await upload('/workspace-uploads', a, [{ name: 'huge-receipt.png', bytes: big, type: 'image/png' }], { uploadType: 'receipt' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({ field: 'files', message: 'huge-receipt.png is larger than 10 MB' });
    expect(await rowCount(a.workspaceId)).toBe(rows);
    expect(objectsOf(a.workspaceId)).toHaveLength(objects);
  });

  it('in a mixed request the good file is kept and the bad one named in failedFiles; empty, missing and text files are refused', async () => {
    const objects = objectsOf(a.workspaceId).length;
    const r = await upload(
      '/workspace-uploads',
      a,
      [
        { name: 'lunch.jpg', bytes: jpg() },
        { name: 'setup.exe', bytes: exe() },
        { name: 'notes.pdf', bytes: Buffer.from('just text, not a pdf') },
      ],
      { uploadType: 'receipt' },
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Receipt has been uploaded successfully.');
    expect(r.body.results.uploadedFiles).toHaveLength(1);
    expect(r.body.results.uploadedFiles[0]).toMatchObject({ fileName: 'lunch.jpg', contentType: 'image/jpeg', uploadType: 'receipt' });
    expect(r.body.results.failedFiles).toEqual([
      { fileName: 'setup.exe', reason: 'setup.exe is not a jpg, jpeg, png or pdf file' },
      { fileName: 'notes.pdf', reason: 'notes.pdf is not a jpg, jpeg, png or pdf file' },
    ]);
    expect(objectsOf(a.workspaceId)).toHaveLength(objects + 1);

    const empty = await upload('/workspace-uploads', a, [{ name: 'empty.png', bytes: Buffer.alloc(0) }]);
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toEqual({ field: 'files', message: 'empty.png is empty' });
    const none = await upload('/workspace-uploads', a, [], { uploadType: 'receipt' });
    expect(none.status).toBe(400);
    expect(none.body.errors[0].field).toBe('files');
    const badType = await upload('/workspace-uploads', a, [{ name: 'r.png', bytes: png() }], { uploadType: 'photo' });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0]).toEqual({ field: 'uploadType', message: 'uploadType must be one of file, receipt, bill, invoice' });
    const json = await s.api('POST', '/workspace-uploads/bill', { tenant: a, body: { files: [] } });
    expect(json.status).toBe(400);
  });
});

describe('signed URLs', () => {
  it('expire (403 from the store), a tampered one is refused, and GET /workspace-uploads/{id} hands out a fresh one', async () => {
    const r = await upload('/workspace-uploads', a, [{ name: 'expiring.png', bytes: png() }], { uploadType: 'file' });
    expect(r.body.message).toBe('File uploaded successfully.');
    const u = r.body.results.uploadedFiles[0];
    expect((await fetch(u.signedUrl)).status).toBe(200);
    const otherId = randomUUID();
    expect((await fetch(u.signedUrl.replace(u.id, otherId))).status).toBe(403);
    s3.advanceClock(121_000);
    try {
      const late = await fetch(u.signedUrl);
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('Request has expired');
    } finally {
      s3.advanceClock(-121_000);
    }
    const fresh = await s.api('GET', `/workspace-uploads/${u.id}`, { tenant: a });
    expect(fresh.status).toBe(200);
    const left = Date.parse(fresh.body.signedUrlExpiresAt) - Date.now();
    expect(left).toBeGreaterThan(60_000);
    expect(left).toBeLessThanOrEqual(120_000);
    expect((await fetch(fresh.body.signedUrl)).status).toBe(200);
  });
});

describe('receipt matching', () => {
  let coffee: string;
  let depot1: string;
  let depot2: string;
  let fuel: string;
  beforeAll(async () => {
    const ids = await bankTxns(a, [
      { amountCents: -1250, date: '2026-04-15', name: 'SQ *BLUE BOTTLE COFFEE #12' },
      { amountCents: -4599, date: '2026-04-20', name: 'OFFICE DEPOT #455' },
      { amountCents: -4599, date: '2026-04-20', name: 'OFFICE DEPOT #455' },
      { amountCents: -6000, date: '2026-04-22', name: 'SHELL OIL 5512' },
    ]);
    [coffee, depot1, depot2, fuel] = [ids[0]!, ids[1]!, ids[2]!, ids[3]!];
  }, 60_000);

  const receipt = async (name: string) =>
    (await upload('/workspace-uploads', a, [{ name, bytes: png() }], { uploadType: 'receipt' })).body.results.uploadedFiles[0];

  it('a receipt whose total, date and merchant fit one transaction is matched automatically', async () => {
    const u = await receipt('blue-bottle.png');
    const r = await s.api('PATCH', `/workspace-uploads/${u.id}`, {
      tenant: a,
      body: { merchantName: 'Blue Bottle Coffee', dateTime: '2026-04-14T09:12:00Z', amount: 12.5 },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Upload updated successfully.');
    expect(r.body.upload).toMatchObject({
      merchantName: 'Blue Bottle Coffee',
      dateTime: '2026-04-14',
      amount: 12.5,
      receiptStatus: 'matched',
      matchedBy: 'auto',
    });
    expect(r.body.upload.matchedTransaction).toMatchObject({ id: coffee, dateTime: '2026-04-15', amount: -12.5 });
    expect(r.body.upload.matchConfidence).toBeGreaterThanOrEqual(0.85);
    expect(Date.parse(r.body.upload.matchedOn)).not.toBeNaN();
  });

  it('two equally good transactions are left for review; matching one by hand settles it', async () => {
    const u = await receipt('office-depot.png');
    const r = await s.api('PATCH', `/workspace-uploads/${u.id}`, { tenant: a, body: { merchantName: 'Office Depot', dateTime: '2026-04-19', amount: 45.99 } });
    expect(r.body.upload.receiptStatus).toBe('review');
    expect(r.body.upload.matchedTransaction).toBeNull();
    expect(r.body.upload.suggestions.map((x: { transaction: { id: string } }) => x.transaction.id).sort()).toEqual([depot1, depot2].sort());
    const review = await s.api('GET', '/workspace-uploads?receiptStatus=review', { tenant: a });
    expect(review.body.data.map((x: { id: string }) => x.id)).toEqual([u.id]);

    const m = await s.api('POST', `/workspace-uploads/${u.id}/match`, { tenant: a, body: { transactionId: depot2 } });
    expect(m.status).toBe(200);
    expect(m.body.message).toBe('Receipt matched successfully.');
    expect(m.body.upload).toMatchObject({ receiptStatus: 'matched', matchedBy: 'manual', matchedTransaction: { id: depot2, amount: -45.99 } });
    // A manual match stays when the facts change.
    const again = await s.api('PATCH', `/workspace-uploads/${u.id}`, { tenant: a, body: { amount: 60 } });
    expect(again.body.upload.matchedTransaction.id).toBe(depot2);
  });

  it('a receipt attached to a transaction (transactionId) is matched to it at once', async () => {
    const r = await upload('/workspace-uploads', a, [{ name: 'fuel.pdf', bytes: pdf('fuel') }], { uploadType: 'receipt', transactionId: fuel });
    expect(r.status).toBe(200);
    expect(r.body.results.uploadedFiles[0]).toMatchObject({ receiptStatus: 'matched', matchedBy: 'manual', matchedTransaction: { id: fuel } });
    const byTxn = await s.api('GET', `/workspace-uploads?transactionId=${fuel}`, { tenant: a });
    expect(byTxn.body.data.map((x: { fileName: string }) => x.fileName)).toEqual(['fuel.pdf']);
  });

  it('reading (the hook the reading helper plugs into) fills the facts a person has not set and matches the receipt', async () => {
    const [uber] = await bankTxns(a, [{ amountCents: -2345, date: '2026-04-25', name: 'UBER *TRIP' }]);
    const u = await receipt('uber.png');
    await s.api('PATCH', `/workspace-uploads/${u.id}`, { tenant: a, body: { merchantName: 'Uber' } });
    const seen: { mime: string; kind: string; size: number }[] = [];
    const read = async (input: { bytes: Uint8Array; mime: string; kind: string }) => {
      seen.push({ mime: input.mime, kind: input.kind, size: input.bytes.length });
      return { merchantName: 'UBER TECHNOLOGIES', date: '2026-04-24', amountCents: 2345 };
    };
    const tenant = { workspaceId: a.workspaceId, userId: randomUUID(), role: 'Owner' as const };
    await s.documents.uploads.read(tenant, u.id, read);
    await s.documents.uploads.read(tenant, u.id, read);
    expect(seen).toEqual([{ mime: 'image/png', kind: 'receipt', size: png().length }]);
    const after = await s.api('GET', `/workspace-uploads/${u.id}`, { tenant: a });
    expect(after.body).toMatchObject({
      merchantName: 'Uber',
      dateTime: '2026-04-24',
      amount: 23.45,
      readStatus: 'read',
      receiptStatus: 'matched',
      matchedBy: 'auto',
      matchedTransaction: { id: uber },
    });
  });

  it('a receipt with nothing near stays unmatched; bad facts are a 400 naming the field and change nothing', async () => {
    const u = await receipt('mystery.png');
    const r = await s.api('PATCH', `/workspace-uploads/${u.id}`, { tenant: a, body: { merchantName: 'Nobody', dateTime: '2026-01-02', amount: 12.5 } });
    expect(r.body.upload.receiptStatus).toBe('unmatched');
    for (const [body, field] of [
      [{ dateTime: 'yesterday' }, 'dateTime'],
      [{ dateTime: '2026-02-30' }, 'dateTime'],
      [{ amount: -3 }, 'amount'],
      [{ amount: 1.234 }, 'amount'],
      [{ merchantName: 'x'.repeat(201) }, 'merchantName'],
      [{ amount: '12' }, 'amount'],
      [{}, 'merchantName'],
    ] as const) {
      const bad = await s.api('PATCH', `/workspace-uploads/${u.id}`, { tenant: a, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.errors[0].field, JSON.stringify(body)).toBe(field);
    }
    const after = await s.api('GET', `/workspace-uploads/${u.id}`, { tenant: a });
    expect(after.body).toMatchObject({ merchantName: 'Nobody', dateTime: '2026-01-02', amount: 12.5 });
    const unknownTxn = await s.api('POST', `/workspace-uploads/${u.id}/match`, { tenant: a, body: { transactionId: randomUUID() } });
    expect(unknownTxn.status).toBe(404);
    expect(unknownTxn.body.errors[0].field).toBe('transactionId');
    const noTxn = await s.api('POST', `/workspace-uploads/${u.id}/match`, { tenant: a, body: {} });
    expect(noTxn.status).toBe(400);
    expect(noTxn.body.errors[0].field).toBe('transactionId');
  });

  it('the list filters by receiptStatus, uploadType and date, pages, and refuses unknown values', async () => {
    const matched = await s.api('GET', '/workspace-uploads?receiptStatus=matched&uploadType=receipt', { tenant: a });
    expect(matched.status).toBe(200);
    expect(matched.body.data.every((x: { receiptStatus: string; uploadType: string }) => x.receiptStatus === 'matched' && x.uploadType === 'receipt')).toBe(
      true,
    );
    expect(matched.body.data.length).toBe(4);
    const bills = await s.api('GET', '/workspace-uploads?uploadType=bill,invoice', { tenant: a });
    expect(bills.body.data.map((x: { uploadType: string }) => x.uploadType).sort()).toEqual(['bill', 'invoice', 'invoice']);
    const april = await s.api('GET', '/workspace-uploads?startDate=2026-04-01&endDate=2026-04-30&uploadType=receipt', { tenant: a });
    expect(april.body.data.map((x: { dateTime: string }) => x.dateTime).sort()).toEqual(['2026-04-14', '2026-04-19', '2026-04-24']);
    const page = await s.api('GET', '/workspace-uploads?take=2&page=1', { tenant: a });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta).toMatchObject({ page: 1, take: 2, hasNextPage: true });
    expect(page.body.meta.itemCount).toBe(await rowCount(a.workspaceId));
    for (const [q, field] of [
      ['uploadType=photo', 'uploadType'],
      ['receiptStatus=lost', 'receiptStatus'],
      ['startDate=2026-13-01', 'startDate'],
      ['take=0', 'take'],
      ['startDate=2026-05-01&endDate=2026-04-01', 'startDate'],
    ] as const) {
      const bad = await s.api('GET', `/workspace-uploads?${q}`, { tenant: a });
      expect(bad.status, q).toBe(400);
      expect(
        bad.body.errors.map((e: { field: string }) => e.field),
        q,
      ).toContain(field);
    }
  });
});

describe('two tenants and roles', () => {
  it("another workspace's upload or transaction is 404; its list shows none of them; a Viewer cannot write", async () => {
    const mine = (await upload('/workspace-uploads', a, [{ name: 'a.png', bytes: png() }], { uploadType: 'receipt' })).body.results.uploadedFiles[0];
    const [aTxn] = await bankTxns(a, [{ amountCents: -999, date: '2026-06-01', name: 'A SHOP' }]);
    const theirs = (await upload('/workspace-uploads', b, [{ name: 'b.png', bytes: png() }], { uploadType: 'receipt' })).body.results.uploadedFiles[0];

    expect((await s.api('GET', `/workspace-uploads/${mine.id}`, { tenant: b })).status).toBe(404);
    expect((await s.api('PATCH', `/workspace-uploads/${mine.id}`, { tenant: b, body: { merchantName: 'Stolen' } })).status).toBe(404);
    expect((await s.api('POST', `/workspace-uploads/${mine.id}/match`, { tenant: b, body: { transactionId: aTxn } })).status).toBe(404);
    const crossTxn = await s.api('POST', `/workspace-uploads/${theirs.id}/match`, { tenant: b, body: { transactionId: aTxn } });
    expect(crossTxn.status).toBe(404);
    expect(crossTxn.body.errors[0].field).toBe('transactionId');
    const attach = await upload('/workspace-uploads', b, [{ name: 'b2.png', bytes: png() }], { uploadType: 'receipt', transactionId: aTxn! });
    expect(attach.status).toBe(404);
    const listB = await s.api('GET', '/workspace-uploads', { tenant: b });
    expect(listB.body.data.map((x: { id: string }) => x.id)).toEqual([theirs.id]);
    const filter = await s.api('GET', `/workspace-uploads?transactionId=${aTxn}`, { tenant: b });
    expect(filter.status).toBe(404);
    expect(filter.body.errors[0].field).toBe('transactionId');
    expect((await s.api('GET', `/workspace-uploads/${mine.id}`, { tenant: a })).body.merchantName).toBeNull();

    const viewer = { token: a.viewerToken, workspaceId: a.workspaceId };
    const v1 = await upload('/workspace-uploads/bill', viewer, [{ name: 'v.pdf', bytes: pdf('v') }]);
    expect(v1.status).toBe(403);
    expect(v1.body.message).toBe('Editing actions are disabled for your account');
    expect(
      (await s.api('PATCH', `/workspace-uploads/${mine.id}`, { token: a.viewerToken, tenant: { ...a, token: a.viewerToken }, body: { merchantName: 'V' } }))
        .status,
    ).toBe(403);
    expect((await s.api('GET', `/workspace-uploads/${mine.id}`, { tenant: { ...a, token: a.viewerToken } })).status).toBe(200);
  });
});

describe('crashes and retries', () => {
  it('the same Idempotency-Key answers the first upload instead of storing again', async () => {
    const key = randomUUID();
    const first = await upload('/workspace-uploads/bill', a, [{ name: 'once.pdf', bytes: pdf('once') }], {}, { 'idempotency-key': key });
    const second = await upload('/workspace-uploads/bill', a, [{ name: 'once.pdf', bytes: pdf('once') }], {}, { 'idempotency-key': key });
    expect(second.status).toBe(200);
    expect(second.body.results.uploadedFiles[0].id).toBe(first.body.results.uploadedFiles[0].id);
    const rows = (await s.documentsDb.adminDb.raw('select count(*)::int as n from uploads where idempotency_key like ?', [`${key}#%`])).rows[0].n;
    expect(rows).toBe(1);
  });

  it('the sweeper settles rows a crash left pending: object there → stored, object missing → row removed', async () => {
    // A crash after the object was put (row still pending), and one before (no object).
    const ws = a.workspaceId;
    const bytes = pdf('crashed after put');
    const putDone = randomUUID();
    const putLost = randomUUID();
    const insert = (id: string, body: Buffer) =>
      s.documentsDb.adminDb.raw(
        "insert into uploads (id, workspace_id, upload_type, status, object_key, file_name, content_type, size_bytes, md5, created_at) values (?, ?, 'bill', 'pending', ?, 'c.pdf', 'application/pdf', ?, ?, now() - interval '1 hour')",
        [id, ws, `workspaces/${ws}/uploads/${id}.pdf`, body.length, createHash('md5').update(body).digest('hex')],
      );
    await insert(putDone, bytes);
    await insert(putLost, bytes);
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      endpoint: s3.url,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `workspaces/${ws}/uploads/${putDone}.pdf`, Body: bytes }));
    client.destroy();
    // Pending rows are not shown.
    expect((await s.api('GET', `/workspace-uploads/${putDone}`, { tenant: a })).status).toBe(404);

    const swept = await s.documents.uploadsSweeper.runOnce();
    expect(swept).toEqual({ stored: 1, removed: 1 });
    expect((await s.api('GET', `/workspace-uploads/${putDone}`, { tenant: a })).status).toBe(200);
    expect((await s.documentsDb.adminDb.raw('select count(*)::int as n from uploads where id = ?', [putLost])).rows[0].n).toBe(0);
    // A second sweep finds nothing to do.
    expect(await s.documents.uploadsSweeper.runOnce()).toEqual({ stored: 0, removed: 0 });
  });
});
