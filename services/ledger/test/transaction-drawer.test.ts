// The transaction drawer (issue #13): receipts (uploads of the documents service since decision 0031: the ledger
// records their attachment in the trail and still answers the receipts it stored before), comments with tagged
// members, and the trail each writes in the same database transaction; another workspace's transaction is "not found".
import { create } from '@bufbuild/protobuf';
import { AppError, createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MSG } from '../src/domain/comments.js';
import { createHash } from 'node:crypto';
import { insertReceipt } from '../src/store/receipts-store.js';
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

type Tenant = { workspaceId: string; userId: string; role: 'Owner' | 'Viewer' };

/** A workspace with one bank transaction; answers the tenant and the transaction's id. */
async function workspaceWithTransaction(): Promise<{ tenant: Tenant; txnId: string }> {
  const ws = newId();
  const tenant: Tenant = { workspaceId: ws, userId: newId(), role: 'Owner' };
  const bankId = newId();
  await withTenant(db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    const bank = await ensureBankLedgerAccount(trx, ws, {
      accountId: newId(),
      name: 'Checking',
      mask: '1',
      type: 'depository',
      subtype: 'checking',
      institutionName: 'B',
    });
    await applyBankTransaction(
      trx,
      ws,
      create(BankTransactionSchema, {
        id: bankId,
        accountId: bank.bank_account_id as string,
        externalId: bankId,
        amountCents: -4250n,
        isoCurrencyCode: 'USD',
        date: '2026-10-05',
        name: 'Office Depot',
        version: 1n,
      }),
    );
  });
  const [r] = await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [bankId]);
  return { tenant, txnId: r?.id as string };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

/** A receipt as the ledger stored them before receipts became uploads of the documents service. */
async function oldReceipt(tenant: Tenant, txnId: string, fileName: string, bytes: Uint8Array, contentType: string): Promise<string> {
  const id = newId();
  await withTenant(db.appDb, tenant, (trx) =>
    insertReceipt(trx, {
      id,
      workspace_id: tenant.workspaceId,
      transaction_id: txnId,
      file_name: fileName,
      content_type: contentType,
      size_bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest(),
      content: Buffer.from(bytes),
      uploaded_by: tenant.userId,
    }),
  );
  return id;
}

describe('receipts', () => {
  it('records each attached receipt once in the trail, with who attached it', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const receipts = [
      { id: newId(), fileName: 'lunch.png', contentType: 'image/png', sizeBytes: PNG.length },
      { id: newId(), fileName: 'invoice.pdf', contentType: 'application/pdf', sizeBytes: PDF.length },
    ];
    expect(await u.receipts.recordAttached(tenant, txnId, receipts, { name: 'Ada Lovelace', email: 'ada@example.com' })).toBe(2);
    // A retry (the same uploads) records nothing twice.
    expect(await u.receipts.recordAttached(tenant, txnId, receipts, undefined)).toBe(0);
    const trail = await u.transactions.auditLogs(tenant, txnId, 1, 50);
    const attached = trail.data.filter((a) => a.event === 'receipt_uploaded');
    expect(attached.map((a) => (a.details as { fileName: string }).fileName).sort()).toEqual(['invoice.pdf', 'lunch.png']);
    expect(attached.map((a) => (a.details as { receiptId: string }).receiptId).sort()).toEqual(receipts.map((r) => r.id).sort());
    expect(attached.every((a) => a.user_id === tenant.userId)).toBe(true);
    expect((await u.comments.taggableUsers(tenant, undefined)).map((m) => m.name)).toEqual(['Ada Lovelace']);
  });

  it('still answers the receipts it stored before, read only', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const id = await oldReceipt(tenant, txnId, 'lunch.png', PNG, 'image/png');
    await oldReceipt(tenant, txnId, 'invoice.pdf', PDF, 'application/pdf');
    const file = await u.receipts.file(tenant, id);
    expect(Buffer.compare(file.content, Buffer.from(PNG))).toBe(0);
    expect((await u.receipts.list(tenant, txnId)).map((x) => x.file_name).sort()).toEqual(['invoice.pdf', 'lunch.png']);
  });

  it("refuses bad input naming the field, another workspace's transaction and receipt, and a Viewer", async () => {
    const a = await workspaceWithTransaction();
    const b = await workspaceWithTransaction();
    const one = [{ id: newId(), fileName: 'a.png', contentType: 'image/png', sizeBytes: PNG.length }];
    expect((await refusal(u.receipts.recordAttached(a.tenant, a.txnId, [], undefined))).options.fields?.[0]?.field).toBe('receipts');
    expect((await refusal(u.receipts.recordAttached(a.tenant, a.txnId, [{ ...one[0]!, id: 'nope' }], undefined))).options.fields?.[0]?.field).toBe(
      'receipts.0.id',
    );
    expect((await refusal(u.receipts.recordAttached(a.tenant, 'nope', one, undefined))).options.fields?.[0]?.field).toBe('transactionId');
    const id = await oldReceipt(a.tenant, a.txnId, 'a.png', PNG, 'image/png');
    expect((await refusal(u.receipts.recordAttached(b.tenant, a.txnId, one, undefined))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.receipts.list(b.tenant, a.txnId))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.receipts.file(b.tenant, id))).kind).toBe('NOT_FOUND');
    expect((await refusal(u.receipts.recordAttached({ ...a.tenant, role: 'Viewer' }, a.txnId, one, undefined))).kind).toBe('PERMISSION_DENIED');
    expect((await u.transactions.auditLogs(a.tenant, a.txnId, 1, 50)).data.some((x) => x.event === 'receipt_uploaded')).toBe(false);
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
    expect(listed).toMatchObject({
      comment: 'Is this the printer toner?',
      user_id: tenant.userId,
      user_name: 'Ada Lovelace',
      taggedUsers: [{ id: colleague.userId, name: 'Grace Hopper' }],
    });
    const [last] = (await u.transactions.auditLogs(tenant, txnId, 1, 50)).data;
    expect(last).toMatchObject({
      event: 'commented',
      user_id: tenant.userId,
      details: { comment: 'Is this the printer toner?', taggedUsers: [colleague.userId] },
    });
  });

  it('refuses an empty or too long comment, a tag of a non-member and a malformed tag, naming the field', async () => {
    const { tenant, txnId } = await workspaceWithTransaction();
    const outsider = await workspaceWithTransaction(); // a member of another workspace only
    await u.comments.taggableUsers(outsider.tenant, undefined);
    expect((await refusal(u.comments.post(tenant, txnId, '   ', [], undefined))).options.fields).toEqual([{ field: 'comment', message: COMMENT_MSG.required }]);
    expect((await refusal(u.comments.post(tenant, txnId, 'x'.repeat(2001), [], undefined))).options.fields).toEqual([
      { field: 'comment', message: COMMENT_MSG.tooLong },
    ]);
    expect((await refusal(u.comments.post(tenant, txnId, 'hi', [outsider.tenant.userId], undefined))).options.fields).toEqual([
      { field: 'taggedUsers', message: COMMENT_MSG.notMember },
    ]);
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
    await oldReceipt(a.tenant, a.txnId, 'a.pdf', PDF, 'application/pdf');
    const seen = await withTenant(db.appDb, b.tenant, async (trx) => ({
      comments: (await trx('transaction_comments')).length,
      receipts: (await trx('transaction_receipts')).length,
      members: (await trx('workspace_members').where({ workspace_id: a.tenant.workspaceId })).length,
    }));
    expect(seen).toEqual({ comments: 0, receipts: 0, members: 0 });
  });
});
