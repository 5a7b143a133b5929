// The transaction drawer (issue #13): receipts (type by content, size), comments with tagged members, and
// the trail each writes in the same database transaction; another workspace's transaction is "not found".
import { create } from '@bufbuild/protobuf';
import { AppError, createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MSG } from '../src/domain/comments.js';
import { RECEIPT_MAX_BYTES, RECEIPT_MSG, receiptFileProblem, sniffReceiptType } from '../src/domain/receipts.js';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { applyBankTransaction } from '../src/usecases/bank-events.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';
import { rows } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_drawer', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-drawer', 'silent') });
});
afterAll(async () => db?.drop());

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);

type Tenant = { workspaceId: string; userId: string; role: 'Owner' | 'Viewer' };

/** A workspace with one bank transaction; answers the tenant and the transaction's id. */
async function workspaceWithTransaction(): Promise<{ tenant: Tenant; txnId: string }> {
  const ws = newId();
  const tenant: Tenant = { workspaceId: ws, userId: newId(), role: 'Owner' };
  const bankId = newId();
  await withTenant(db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    const bank = await ensureBankLedgerAccount(trx, ws, { accountId: newId(), name: 'Checking', mask: '1', type: 'depository', subtype: 'checking', institutionName: 'B' });
    await applyBankTransaction(trx, ws, create(BankTransactionSchema, { id: bankId, accountId: bank.bank_account_id as string, externalId: bankId, amountCents: -4250n, isoCurrencyCode: 'USD', date: '2026-10-05', name: 'Office Depot', version: 1n }));
  });
  const [r] = await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [bankId]);
  return { tenant, txnId: r?.id as string };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('receipt files (pure)', () => {
  it('knows jpg, png and pdf by their first bytes, whatever the name says', () => {
    expect(sniffReceiptType(PNG)).toBe('image/png');
    expect(sniffReceiptType(PDF)).toBe('application/pdf');
    expect(sniffReceiptType(JPEG)).toBe('image/jpeg');
    expect(sniffReceiptType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(receiptFileProblem('receipt.png', PNG)).toBeNull();
    expect(receiptFileProblem('receipt.JPEG', JPEG)).toBeNull();
    expect(receiptFileProblem('receipt.pdf', PNG)).toBe(RECEIPT_MSG.badType); // name and content disagree
    expect(receiptFileProblem('script.png', new TextEncoder().encode('<script>alert(1)</script>'))).toBe(RECEIPT_MSG.badType);
    expect(receiptFileProblem('big.pdf', new Uint8Array(RECEIPT_MAX_BYTES + 1).fill(0x25))).toBe(RECEIPT_MSG.tooLarge);
    expect(receiptFileProblem('empty.pdf', new Uint8Array(0))).toBe(RECEIPT_MSG.empty);
  });
});

describe('receipts', () => {
  it('stores good files, answers the bad ones in failedFiles, and writes one trail entry per receipt', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const r = await u.receipts.upload(tenant, txnId, [{ fileName: 'lunch.png', content: PNG }, { fileName: '../../etc/notes.txt', content: new TextEncoder().encode('hello') }, { fileName: 'invoice.pdf', content: PDF }], { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(r.message).toBe('Receipt has been uploaded successfully.');
    expect(r.uploadedFiles.map((f) => [f.file_name, f.content_type, f.size_bytes, f.uploaded_by_name])).toEqual([['lunch.png', 'image/png', PNG.length, 'Ada Lovelace'], ['invoice.pdf', 'application/pdf', PDF.length, 'Ada Lovelace']]);
    expect(r.failedFiles).toEqual([{ fileName: 'notes.txt', reason: RECEIPT_MSG.badType }]);
    const file = await u.receipts.file(tenant, r.uploadedFiles[0]!.id);
    expect(Buffer.compare(file.content, Buffer.from(PNG))).toBe(0);
    expect((await u.receipts.list(tenant, txnId)).map((x) => x.file_name)).toEqual(['lunch.png', 'invoice.pdf']);
    const trail = await u.transactions.auditLogs(tenant, txnId, 1, 50);
    const uploads = trail.data.filter((a) => a.event === 'receipt_uploaded');
    expect(uploads.map((a) => (a.details as { fileName: string }).fileName).sort()).toEqual(['invoice.pdf', 'lunch.png']);
    expect(uploads.every((a) => a.user_id === tenant.userId)).toBe(true);
  });

  it('refuses a request where no file is a receipt (400 naming files) and stores nothing', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const e = await refusal(u.receipts.upload(tenant, txnId, [{ fileName: 'evil.pdf', content: new TextEncoder().encode('MZ\x90\x00') }], undefined));
    expect(e.kind).toBe('INVALID_INPUT');
    expect(e.options.fields?.[0]?.field).toBe('files');
    expect(await u.receipts.list(tenant, txnId)).toEqual([]);
    expect((await u.transactions.auditLogs(tenant, txnId, 1, 50)).data.some((a) => a.event === 'receipt_uploaded')).toBe(false);
    expect((await refusal(u.receipts.upload(tenant, txnId, [], undefined))).options.fields?.[0]?.field).toBe('files');
  });

  it("answers not found for another workspace's transaction and receipt, and refuses a Viewer", async () => {
    const a = await workspaceWithTransaction();
    const b = await workspaceWithTransaction();
    const up = await u.receipts.upload(a.tenant, a.txnId, [{ fileName: 'a.png', content: PNG }], undefined);
    expect((await refusal(u.receipts.upload(b.tenant, a.txnId, [{ fileName: 'b.png', content: PNG }], undefined))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.receipts.list(b.tenant, a.txnId))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.receipts.file(b.tenant, up.uploadedFiles[0]!.id))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.receipts.upload({ ...a.tenant, role: 'Viewer' }, a.txnId, [{ fileName: 'v.png', content: PNG }], undefined))).kind).toBe('PERMISSION_DENIED');
  });
});

describe('comments', () => {
  it('posts a comment tagging a member, lists it with names, and writes it to the trail', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const colleague: Tenant = { ...tenant, userId: newId() };
    // The colleague has acted in the workspace (the gateway admitted them: a member).
    expect((await u.comments.taggableUsers(colleague, { name: 'Grace Hopper', email: 'grace@example.com' })).map((m) => m.name)).toEqual(['Grace Hopper']);
    const r = await u.comments.post(tenant, txnId, '  Is this the printer toner?  ', [colleague.userId], { name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(r.message).toBe('Posted Comment Succesfully');
    expect(r.comment.comment).toBe('Is this the printer toner?');
    expect(r.comment.taggedUsers).toEqual([{ id: colleague.userId, name: 'Grace Hopper' }]);
    const [listed] = await u.comments.list(tenant, txnId);
    expect(listed).toMatchObject({ comment: 'Is this the printer toner?', user_id: tenant.userId, user_name: 'Ada Lovelace', taggedUsers: [{ id: colleague.userId, name: 'Grace Hopper' }] });
    const [last] = (await u.transactions.auditLogs(tenant, txnId, 1, 50)).data;
    expect(last).toMatchObject({ event: 'commented', user_id: tenant.userId, details: { comment: 'Is this the printer toner?', taggedUsers: [colleague.userId] } });
  });

  it('refuses an empty or too long comment, a tag of a non-member and a malformed tag, naming the field', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const outsider = await workspaceWithTransaction(); // a member of another workspace only
    await u.comments.taggableUsers(outsider.tenant, undefined);
    expect((await refusal(u.comments.post(tenant, txnId, '   ', [], undefined))).options.fields).toEqual([{ field: 'comment', message: COMMENT_MSG.required }]);
    expect((await refusal(u.comments.post(tenant, txnId, 'x'.repeat(2001), [], undefined))).options.fields).toEqual([{ field: 'comment', message: COMMENT_MSG.tooLong }]);
    expect((await refusal(u.comments.post(tenant, txnId, 'hi', [outsider.tenant.userId], undefined))).options.fields).toEqual([{ field: 'taggedUsers', message: COMMENT_MSG.notMember }]);
    expect((await refusal(u.comments.post(tenant, txnId, 'hi', ['not-a-uuid'], undefined))).options.fields?.[0]?.field).toBe('taggedUsers');
    expect(await u.comments.list(tenant, txnId)).toEqual([]);
    expect((await u.comments.post(tenant, txnId, 'x'.repeat(2000), [], undefined)).comment.comment).toHaveLength(2000);
  });

  it("answers not found for another workspace's transaction", async () => {
    const a = await workspaceWithTransaction();
    const b = await workspaceWithTransaction();
    expect((await refusal(u.comments.post(b.tenant, a.txnId, 'peek', [], undefined))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.comments.list(b.tenant, a.txnId))).kind).toBe('NOT_FOUND');
    const stored = await rows<{ n: string }>(db.adminDb, 'select count(*) as n from transaction_comments where transaction_id = ?', [a.txnId]);
    expect(Number(stored[0]?.n)).toBe(0);
  });

  it('keeps the rows of each workspace behind row-level security', async () => {
    const a = await workspaceWithTransaction();
    const b = await workspaceWithTransaction();
    await u.comments.post(a.tenant, a.txnId, 'mine', [], undefined);
    await u.receipts.upload(a.tenant, a.txnId, [{ fileName: 'a.pdf', content: PDF }], undefined);
    const seen = await withTenant(db.appDb, b.tenant, async (trx) => ({
      comments: (await trx('transaction_comments')).length,
      receipts: (await trx('transaction_receipts')).length,
      members: (await trx('workspace_members_seen').where({ workspace_id: a.tenant.workspaceId })).length,
    }));
    expect(seen).toEqual({ comments: 0, receipts: 0, members: 0 });
  });
});
