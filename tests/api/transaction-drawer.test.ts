// The transaction drawer through the real gateway, ledger and documents service with the S3 sandbox (issue #13;
// decision 0031): POST /transactions/receipt (multipart; type by content) stores each file as an upload of type
// receipt matched to the transaction (GET /workspace-uploads shows it), the receipt's file back byte for byte, a
// receipt the ledger stored before still listed and served, POST /transactions/comment with a
// tagged member, GET /transactions/audit-logs newest first with the drawer's events among the others, and
// another workspace's transaction answered 404 on every drawer route.
import { createHash } from 'node:crypto';
import { newId } from '@ledgerline/platform';
import { startS3Sandbox, type S3Sandbox } from '@ledgerline/s3-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankTransactions, startDocumentsSystem, type DocumentsSystem, type Tenant } from './documents.harness.js';

const BUCKET = 'drawer-test';
let s3: S3Sandbox;
let h: DocumentsSystem;
let t: Tenant;
let other: Tenant;
let txnId: string;
let gatewayUrl: string;

/** A 1×1 PNG and a PDF without text: receipts by their content whatever their names say. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/Vd8nTwAAAABJRU5ErkJggg==', 'base64'));
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(tenant: Tenant, form: FormData, token = tenant.token) {
  const res = await fetch(`${gatewayUrl}/transactions/receipt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-workspace-id': tenant.workspaceId },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
function receiptForm(transactionId: string, files: { name: string; bytes: Uint8Array; type?: string }[]): FormData {
  const form = new FormData();
  form.append('transactionId', transactionId);
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return form;
}
const objectsOf = (workspaceId: string) => s3.keys(BUCKET).filter((k) => k.startsWith(`workspaces/${workspaceId}/`));

beforeAll(async () => {
  s3 = await startS3Sandbox({ port: 0 });
  h = await startDocumentsSystem('drawer', {
    documentsEnv: {
      DOCUMENTS_S3_ENDPOINT: s3.url,
      DOCUMENTS_S3_BUCKET: BUCKET,
      DOCUMENTS_S3_REGION: s3.region,
      DOCUMENTS_S3_ACCESS_KEY_ID: s3.accessKeyId,
      DOCUMENTS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
  });
  gatewayUrl = h.gatewayUrl;
  t = h.tenant();
  other = h.tenant();
  [txnId] = (await bankTransactions(h, t, [-12_345])) as [string];
}, 180_000);
afterAll(async () => {
  await h?.stop();
  await s3?.close();
});

describe('the transaction drawer over REST', () => {
  it('uploads a receipt (spec message), lists it and gives its bytes back; a bad type is a 400 naming files', async () => {
    const ok = await upload(
      t,
      receiptForm(txnId, [
        { name: 'staples.png', bytes: PNG, type: 'image/png' },
        { name: 'staples.pdf', bytes: PDF },
      ]),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Receipt has been uploaded successfully.');
    expect(ok.body.results.failedFiles).toEqual([]);
    expect(
      ok.body.results.uploadedFiles.map((f: { fileName: string; contentType: string; sizeBytes: number }) => [f.fileName, f.contentType, f.sizeBytes]),
    ).toEqual([
      ['staples.png', 'image/png', PNG.length],
      ['staples.pdf', 'application/pdf', PDF.length],
    ]);

    const listed = await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: t });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    const file = await fetch(`${gatewayUrl}${listed.body.data[0].url}?download=1`, {
      headers: { authorization: `Bearer ${t.token}`, 'x-workspace-id': t.workspaceId },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="staples.png"');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);

    // A text file called .png (and declared image/png) is refused by its content.
    const bad = await upload(t, receiptForm(txnId, [{ name: 'fake.png', bytes: new TextEncoder().encode('<html>not an image</html>'), type: 'image/png' }]));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      statusCode: 400,
      appErrorCode: expect.any(String),
      errors: [{ field: 'files', message: 'fake.png is not a jpg, jpeg, png or pdf file' }],
    });
    expect(objectsOf(t.workspaceId)).toHaveLength(2);
    const noFiles = await upload(t, receiptForm(txnId, []));
    expect(noFiles.status).toBe(400);
    expect(noFiles.body.errors[0].field).toBe('files');
    const json = await h.api('POST', '/transactions/receipt', { tenant: t, body: { transactionId: txnId } });
    expect(json.status).toBe(400);
    expect(json.body.errors[0].field).toBe('files');
    expect((await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: t })).body.data).toHaveLength(2);
    // Viewers read but do not upload.
    expect((await upload(t, receiptForm(txnId, [{ name: 'v.png', bytes: PNG }]), t.viewerToken)).status).toBe(403);
  });

  it('posts a comment tagging a member (spec message), lists it, and refuses an empty comment and a non-member tag', async () => {
    // The Viewer opens the drawer: the ledger has seen them act in the workspace.
    const viewerSeen = await h.api('GET', '/transactions/taggable-users', { token: t.viewerToken, tenant: { ...t, token: t.viewerToken } });
    expect(viewerSeen.status).toBe(200);
    const viewer = viewerSeen.body.data[0] as { id: string; name: string };
    const posted = await h.api('POST', '/transactions/comment', {
      tenant: t,
      body: { transactionId: txnId, comment: 'Toner for the office printer', taggedUsers: [viewer.id] },
    });
    expect(posted.status).toBe(200);
    expect(posted.body.message).toBe('Posted Comment Succesfully');
    expect(posted.body.comment).toMatchObject({ transactionId: txnId, comment: 'Toner for the office printer', taggedUsers: [{ id: viewer.id }] });
    const listed = await h.api('GET', `/transactions/comments?transactionId=${txnId}`, { tenant: t });
    expect(listed.body.data.map((c: { comment: string }) => c.comment)).toEqual(['Toner for the office printer']);
    expect(listed.body.data[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const empty = await h.api('POST', '/transactions/comment', { tenant: t, body: { transactionId: txnId, comment: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toEqual({ field: 'comment', message: 'comment is required' });
    const stranger = await h.api('POST', '/transactions/comment', {
      tenant: t,
      body: { transactionId: txnId, comment: 'hi', taggedUsers: ['0193b9a0-0000-7000-8000-000000000001'] },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors[0].field).toBe('taggedUsers');
  });

  it('lists the history newest first: category change, finalize, comment and receipts, each with who', async () => {
    const categories = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string; type: string }[];
    const office = categories.find((c) => c.type === 'Expenses' && c.name !== 'Uncategorised Expense');
    expect(office).toBeDefined();
    expect((await h.api('PATCH', `/transactions/${txnId}`, { tenant: t, body: { categoryId: office?.id } })).status).toBe(200);
    expect((await h.api('POST', '/transactions/finalize', { tenant: t, body: { transactionIds: [txnId], isTxnFinalized: true } })).status).toBe(200);
    await h.api('POST', '/transactions/comment', { tenant: t, body: { transactionId: txnId, comment: 'Done' } });

    const logs = await h.api('GET', `/transactions/audit-logs?transactionId=${txnId}&take=50`, { tenant: t });
    expect(logs.status).toBe(200);
    const events = (logs.body.data as { event: string }[]).map((l) => l.event);
    expect(events.slice(0, 3)).toEqual(['commented', 'finalized', 'categorised']);
    expect(events.indexOf('commented', 1)).toBeGreaterThan(events.indexOf('categorised'));
    expect(events.filter((e) => e === 'receipt_uploaded')).toHaveLength(2);
    expect(events.at(-1)).toBe('imported');
    const times = (logs.body.data as { createdAt: string }[]).map((l) => Date.parse(l.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(logs.body.data[0]).toMatchObject({ event: 'commented', details: { comment: 'Done' }, userId: expect.any(String) });
  });

  it("answers 404 for another workspace's transaction on every drawer route, and keeps its own data", async () => {
    const before = objectsOf(other.workspaceId).length + objectsOf(t.workspaceId).length;
    const up = await upload(other, receiptForm(txnId, [{ name: 'peek.png', bytes: PNG }]));
    expect(up.status).toBe(404);
    expect(up.body).toMatchObject({ statusCode: 404, message: 'Transaction not found' });
    // Nothing stored for either workspace.
    expect(objectsOf(other.workspaceId).length + objectsOf(t.workspaceId).length).toBe(before);
    expect((await h.api('GET', '/workspace-uploads', { tenant: other })).body.data).toEqual([]);
    expect((await h.api('POST', '/transactions/comment', { tenant: other, body: { transactionId: txnId, comment: 'peek' } })).status).toBe(404);
    expect((await h.api('GET', `/transactions/comments?transactionId=${txnId}`, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', `/transactions/audit-logs?transactionId=${txnId}`, { tenant: other })).status).toBe(404);
    const mine = (await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: t })).body.data[0];
    expect((await h.api('GET', mine.url, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', `/transactions/comments?transactionId=${txnId}`, { tenant: t })).body.data).toHaveLength(2);
  });
});

describe('a drawer receipt is an upload of type receipt', () => {
  it('shows in GET /workspace-uploads?uploadType=receipt matched to the transaction, kept in the object store', async () => {
    const tn = h.tenant();
    const [txn] = (await bankTransactions(h, tn, [-4_250])) as [string];
    const up = await upload(tn, receiptForm(txn, [{ name: 'lunch.pdf', bytes: PDF, type: 'application/pdf' }]));
    expect(up.status).toBe(200);
    const receipt = up.body.results.uploadedFiles[0];
    expect(receipt).toMatchObject({ transactionId: txn, fileName: 'lunch.pdf', uploadType: 'receipt', url: `/transactions/receipts/${receipt.id}/file` });

    const listed = await h.api('GET', '/workspace-uploads?uploadType=receipt', { tenant: tn });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const u = listed.body.data[0];
    expect(u).toMatchObject({
      id: receipt.id,
      uploadType: 'receipt',
      receiptStatus: 'matched',
      matchedBy: 'manual',
      fileName: 'lunch.pdf',
      matchedTransaction: { id: txn, amount: -42.5 },
    });
    expect(Date.parse(u.matchedOn)).not.toBeNaN();
    expect(
      (await h.api('GET', `/workspace-uploads?uploadType=receipt&transactionId=${txn}&receiptStatus=matched`, { tenant: tn })).body.data.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([receipt.id]);
    // The file is an object of the store (under the upload's key), the same bytes the signed URL and the drawer hand out.
    const keys = objectsOf(tn.workspaceId);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain(receipt.id);
    expect(new Uint8Array(s3.object(BUCKET, keys[0]!)!)).toEqual(PDF);
    expect(new Uint8Array(await (await fetch(u.signedUrl)).arrayBuffer())).toEqual(PDF);
    const file = await fetch(`${gatewayUrl}${receipt.url}`, { headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId } });
    expect(file.headers.get('content-disposition')).toBe('inline; filename="lunch.pdf"');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);
    // The ledger keeps no receipt of its own any more: only the trail entry.
    expect(
      Number((await h.ledger.db.adminDb.raw('select count(*)::int as n from transaction_receipts where workspace_id = ?', [tn.workspaceId])).rows[0].n),
    ).toBe(0);
    const trail = await h.api('GET', `/transactions/audit-logs?transactionId=${txn}&take=50`, { tenant: tn });
    expect(
      (trail.body.data as { event: string; details: { receiptId?: string } }[]).filter((l) => l.event === 'receipt_uploaded').map((l) => l.details.receiptId),
    ).toEqual([receipt.id]);

    // The other way round: a receipt uploaded with transactionId through the uploads route is in the drawer.
    const form = new FormData();
    form.append('uploadType', 'receipt');
    form.append('transactionId', txn);
    form.append('files', new Blob([PNG], { type: 'image/png' }), 'tip.png');
    const direct = await fetch(`${gatewayUrl}/workspace-uploads`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId },
    });
    expect(direct.status).toBe(200);
    const drawer = await h.api('GET', `/transactions/receipts?transactionId=${txn}`, { tenant: tn });
    expect(drawer.body.data.map((r: { fileName: string }) => r.fileName)).toEqual(['lunch.pdf', 'tip.png']);
    // A file of another type than receipt is not the drawer's.
    const bill = new FormData();
    bill.append('files', new Blob([PDF], { type: 'application/pdf' }), 'bill.pdf');
    const billUp = await fetch(`${gatewayUrl}/workspace-uploads/bill`, {
      method: 'POST',
      body: bill,
      headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId },
    });
    const billId = ((await billUp.json()) as { results: { uploadedFiles: { id: string }[] } }).results.uploadedFiles[0]!.id;
    expect((await h.api('GET', `/transactions/receipts/${billId}/file`, { tenant: tn })).status).toBe(404);
    expect((await h.api('GET', '/transactions/receipts', { tenant: tn })).body.errors[0].field).toBe('transactionId');
  });

  it('still lists and serves a receipt the ledger stored before receipts became uploads', async () => {
    const tn = h.tenant();
    const [txn] = (await bankTransactions(h, tn, [-990])) as [string];
    const id = newId();
    await h.ledger.db.adminDb('transaction_receipts').insert({
      id,
      workspace_id: tn.workspaceId,
      transaction_id: txn,
      file_name: 'old.png',
      content_type: 'image/png',
      size_bytes: PNG.length,
      sha256: createHash('sha256').update(PNG).digest(),
      content: Buffer.from(PNG),
      uploaded_by: null,
    });
    expect((await upload(tn, receiptForm(txn, [{ name: 'new.pdf', bytes: PDF }]))).status).toBe(200);
    const drawer = await h.api('GET', `/transactions/receipts?transactionId=${txn}`, { tenant: tn });
    expect(drawer.body.data.map((r: { fileName: string }) => r.fileName)).toEqual(['old.png', 'new.pdf']);
    const old = drawer.body.data[0];
    expect(old).toMatchObject({ id, transactionId: txn, contentType: 'image/png', sizeBytes: PNG.length, url: `/transactions/receipts/${id}/file` });
    const file = await fetch(`${gatewayUrl}${old.url}?download=1`, { headers: { authorization: `Bearer ${tn.token}`, 'x-workspace-id': tn.workspaceId } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="old.png"');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    expect((await h.api('GET', old.url, { tenant: other })).status).toBe(404);
  });
});
