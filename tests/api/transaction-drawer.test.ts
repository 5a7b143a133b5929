// The transaction drawer through the real gateway and ledger (issue #13): POST /transactions/receipt
// (multipart; type by content), the receipt's file back byte for byte, POST /transactions/comment with a
// tagged member, GET /transactions/audit-logs newest first with the drawer's events among the others, and
// another workspace's transaction answered 404 on every drawer route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

let h: LedgerApiHarness;
let t: Tenant;
let other: Tenant;
let txnId: string;
let gatewayUrl: string;

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(tenant: Tenant, form: FormData, token = tenant.token) {
  const res = await fetch(`${gatewayUrl}/transactions/receipt`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-workspace-id': tenant.workspaceId }, body: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
function receiptForm(transactionId: string, files: { name: string; bytes: Uint8Array; type?: string }[]): FormData {
  const form = new FormData();
  form.append('transactionId', transactionId);
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return form;
}

beforeAll(async () => {
  h = await startLedgerHarness();
  const address = h.gateway.server.address();
  gatewayUrl = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  t = h.tenant();
  other = h.tenant();
  await t.banking.workspaceCreated();
  const account = await t.banking.link();
  await t.banking.add(account, { amountCents: -12_345, name: 'Staples', date: '2026-10-05' });
  txnId = (await h.transactions(t, 1)).data[0].id as string;
}, 120_000);
afterAll(async () => h?.close());

describe('the transaction drawer over REST', () => {
  it('uploads a receipt (spec message), lists it and gives its bytes back; a bad type is a 400 naming files', async () => {
    const ok = await upload(t, receiptForm(txnId, [{ name: 'staples.png', bytes: PNG, type: 'image/png' }, { name: 'staples.pdf', bytes: PDF }]));
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Receipt has been uploaded successfully.');
    expect(ok.body.results.failedFiles).toEqual([]);
    expect(ok.body.results.uploadedFiles.map((f: { fileName: string; contentType: string; sizeBytes: number }) => [f.fileName, f.contentType, f.sizeBytes])).toEqual([['staples.png', 'image/png', PNG.length], ['staples.pdf', 'application/pdf', PDF.length]]);

    const listed = await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: t });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    const file = await fetch(`${gatewayUrl}${listed.body.data[0].url}?download=1`, { headers: { authorization: `Bearer ${t.token}`, 'x-workspace-id': t.workspaceId } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="staples.png"');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);

    // A text file called .png (and declared image/png) is refused by its content.
    const bad = await upload(t, receiptForm(txnId, [{ name: 'fake.png', bytes: new TextEncoder().encode('<html>not an image</html>'), type: 'image/png' }]));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, appErrorCode: expect.any(String), errors: [{ field: 'files', message: 'files must be jpg, jpeg, png or pdf files' }] });
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
    const posted = await h.api('POST', '/transactions/comment', { tenant: t, body: { transactionId: txnId, comment: 'Toner for the office printer', taggedUsers: [viewer.id] } });
    expect(posted.status).toBe(200);
    expect(posted.body.message).toBe('Posted Comment Succesfully');
    expect(posted.body.comment).toMatchObject({ transactionId: txnId, comment: 'Toner for the office printer', taggedUsers: [{ id: viewer.id }] });
    const listed = await h.api('GET', `/transactions/comments?transactionId=${txnId}`, { tenant: t });
    expect(listed.body.data.map((c: { comment: string }) => c.comment)).toEqual(['Toner for the office printer']);
    expect(listed.body.data[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const empty = await h.api('POST', '/transactions/comment', { tenant: t, body: { transactionId: txnId, comment: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toEqual({ field: 'comment', message: 'comment is required' });
    const stranger = await h.api('POST', '/transactions/comment', { tenant: t, body: { transactionId: txnId, comment: 'hi', taggedUsers: ['0193b9a0-0000-7000-8000-000000000001'] } });
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
    const up = await upload(other, receiptForm(txnId, [{ name: 'peek.png', bytes: PNG }]));
    expect(up.status).toBe(404);
    expect(up.body).toMatchObject({ statusCode: 404, message: 'Transaction not found' });
    expect((await h.api('POST', '/transactions/comment', { tenant: other, body: { transactionId: txnId, comment: 'peek' } })).status).toBe(404);
    expect((await h.api('GET', `/transactions/comments?transactionId=${txnId}`, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', `/transactions/audit-logs?transactionId=${txnId}`, { tenant: other })).status).toBe(404);
    const mine = (await h.api('GET', `/transactions/receipts?transactionId=${txnId}`, { tenant: t })).body.data[0];
    expect((await h.api('GET', mine.url, { tenant: other })).status).toBe(404);
    expect((await h.api('GET', `/transactions/comments?transactionId=${txnId}`, { tenant: t })).body.data).toHaveLength(2);
  });
});
