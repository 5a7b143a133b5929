// PostEntry / VoidEntry: idempotent postings from other services (RELIABILITY 3), over the real Connect
// server, PostgreSQL and NATS.
import { Code, ConnectError } from '@connectrpc/connect';
import { createLogger, errorInfoOf, newId, toConnectError, withTenant } from '@ledgerline/platform';
import { createTestBus } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry } from '../src/store/journal.js';
import { changeInWorkspace } from '../src/usecases/context.js';
import { PostingUseCases } from '../src/usecases/posting.js';
import { publishedEntries, rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;

beforeAll(async () => {
  bus = await createTestBus('ledger-posting');
  ledger = await startLedger(bus);
});
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

/** The workspace's accounts by name (the chart is seeded on the first call). */
async function chart(ws: string): Promise<Record<string, string>> {
  const r = await ledger.client.getChartOfAccounts({}, ledger.as(ws));
  return Object.fromEntries(r.chartOfAccounts.map((c) => [c.name, c.id]));
}

interface Body {
  sourceType?: string;
  sourceId?: string;
  version?: bigint;
  date?: string;
  description?: string;
  lines: { accountId?: string; direction?: string; amountCents?: bigint }[];
}

function bill(a: Record<string, string>, sourceId: string, version: number, cents: number, over: Partial<Body> = {}): Body {
  return {
    sourceType: 'Bill',
    sourceId,
    version: BigInt(version),
    date: '2026-10-15',
    description: 'Bill from AWS',
    lines: [
      { accountId: a['Hosting and Infrastructure'], direction: 'debit', amountCents: BigInt(cents) },
      { accountId: a['Accounts Payable'], direction: 'credit', amountCents: BigInt(cents) },
    ],
    ...over,
  };
}

async function refusal(p: Promise<unknown>): Promise<{ code: Code; message: string; fields: { field: string; message: string }[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, message: e.rawMessage, fields: errorInfoOf(e)?.fields ?? [] };
  }
  throw new Error('expected a refusal');
}

const entriesOf = (ws: string) =>
  rows<{ id: string; seq: number; source_type: string; source_id: string; reverses_entry_id: string | null; description: string; entry_date: string }>(
    ledger.db.adminDb,
    'select id, seq, source_type, source_id, reverses_entry_id, description, entry_date from journal_entries where workspace_id = ? order by seq',
    [ws],
  );
const eventsOf = async (ws: string) => (await publishedEntries(ledger.db.adminDb, ws)).length;
/** An account's balance, debits − credits, over every line. */
const net = async (ws: string, accountId: string | undefined) =>
  (
    await rows<{ s: number }>(
      ledger.db.adminDb,
      "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ? and account_id = ?",
      [ws, accountId],
    )
  )[0]?.s;

describe('PostEntry', () => {
  it('posts a bill as one balanced entry with entry.posted, and answers its id and commit seq', async () => {
    const ws = newId();
    const a = await chart(ws);
    const billId = newId();
    const r = await ledger.client.postEntry(bill(a, billId, 1, 12_345), ledger.as(ws));
    const [entry] = await entriesOf(ws);
    expect(r.result).toMatchObject({
      entryId: entry?.id,
      seq: BigInt(entry?.seq ?? -1),
      version: 1n,
      replayed: false,
      reversedEntryId: '',
      reversalEntryId: '',
    });
    expect(entry).toMatchObject({ source_type: 'Bill', source_id: billId, description: 'Bill from AWS', entry_date: '2026-10-15' });
    expect(await net(ws, a['Hosting and Infrastructure'])).toBe(12_345);
    expect(await net(ws, a['Accounts Payable'])).toBe(-12_345);
    expect(await eventsOf(ws)).toBe(1);
  });

  it('50 concurrent identical requests post one entry and one event, and all 50 answers are the same (RELIABILITY 3)', async () => {
    const ws = newId();
    const a = await chart(ws);
    const body = bill(a, newId(), 1, 9_900);
    // A caller retries a request that failed for want of a connection (50 wait on one source's lock
    // behind a pool of 10 on a busy machine): retrying is exactly what idempotency makes safe.
    const post = async (attempt = 1): Promise<Awaited<ReturnType<typeof ledger.client.postEntry>>> => {
      try {
        return await ledger.client.postEntry(body, ledger.as(ws));
      } catch (err) {
        if (attempt >= 3 || ConnectError.from(err).code !== Code.Internal) throw err;
        return post(attempt + 1);
      }
    };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post()));
    const entries = await entriesOf(ws);
    expect(entries.length).toBe(1);
    expect(await eventsOf(ws)).toBe(1);
    const strip = (x: (typeof answers)[number]) => ({ entryId: x.result?.entryId, seq: x.result?.seq, version: x.result?.version });
    expect(new Set(answers.map((x) => JSON.stringify(strip(x), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))).size).toBe(1);
    expect(strip(answers[0] as (typeof answers)[number])).toEqual({ entryId: entries[0]?.id, seq: BigInt(entries[0]?.seq ?? -1), version: 1n });
    expect(answers.filter((x) => !x.result?.replayed).length).toBe(1);
    expect(await net(ws, a['Hosting and Infrastructure'])).toBe(9_900);
  });

  it('the same key with a different body is refused (ALREADY_EXISTS) and changes nothing; the same body later replays the original', async () => {
    const ws = newId();
    const a = await chart(ws);
    const billId = newId();
    const first = await ledger.client.postEntry(bill(a, billId, 1, 5_000), ledger.as(ws));
    for (const changed of [
      bill(a, billId, 1, 5_001),
      bill(a, billId, 1, 5_000, { date: '2026-10-16' }),
      bill(a, billId, 1, 5_000, { description: 'Another' }),
      { sourceType: 'Bill', sourceId: billId, version: 1n, lines: [] },
    ]) {
      const r = await refusal(ledger.client.postEntry(changed, ledger.as(ws)));
      expect(r.code).toBe(Code.AlreadyExists);
      expect(r.message).toBe(`Bill ${billId} version 1 was already posted with a different body; post a new version to change it`);
    }
    expect((await entriesOf(ws)).length).toBe(1);
    expect(await eventsOf(ws)).toBe(1);
    const again = await ledger.client.postEntry(bill(a, billId, 1, 5_000), ledger.as(ws));
    expect(again.result).toMatchObject({ entryId: first.result?.entryId, seq: first.result?.seq, replayed: true });
  });

  it('two bodies racing for one key: one is posted, every request with the other body is refused', async () => {
    const ws = newId();
    const a = await chart(ws);
    const billId = newId();
    const bodies = [bill(a, billId, 1, 1_000), bill(a, billId, 1, 2_000)];
    const settled = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => ledger.client.postEntry(bodies[i % 2] as Body, ledger.as(ws))));
    const entries = await entriesOf(ws);
    expect(entries.length).toBe(1);
    const winner = (await net(ws, a['Hosting and Infrastructure'])) === 1_000 ? 0 : 1;
    settled.forEach((s, i) => {
      if (i % 2 === winner) expect(s.status === 'fulfilled' && s.value.result?.entryId).toBe(entries[0]?.id);
      else expect(s.status === 'rejected' && ConnectError.from(s.reason).code).toBe(Code.AlreadyExists);
    });
  });

  it('keys are scoped per workspace: the same source and version in another workspace posts its own entry', async () => {
    const ws1 = newId();
    const ws2 = newId();
    const [a1, a2] = [await chart(ws1), await chart(ws2)];
    const billId = newId();
    const r1 = await ledger.client.postEntry(bill(a1, billId, 1, 700), ledger.as(ws1));
    const r2 = await ledger.client.postEntry(bill(a2, billId, 1, 800), ledger.as(ws2));
    expect(r2.result?.entryId).not.toBe(r1.result?.entryId);
    expect(r2.result?.replayed).toBe(false);
    expect(await net(ws2, a2['Accounts Payable'])).toBe(-800);
  });

  it('a new version reverses the previous entry and posts its own; versions may skip, an older unapplied one is refused; a void reverses; a later version posts again', async () => {
    const ws = newId();
    const a = await chart(ws);
    const billId = newId();
    const v1 = await ledger.client.postEntry(bill(a, billId, 1, 10_000), ledger.as(ws));
    const v2 = await ledger.client.postEntry(bill(a, billId, 3, 12_000, { date: '2026-11-01', description: 'Bill from AWS (corrected)' }), ledger.as(ws));
    expect(v2.result).toMatchObject({ reversedEntryId: v1.result?.entryId, replayed: false, version: 3n });
    let entries = await entriesOf(ws);
    expect(entries.map((e) => [e.reverses_entry_id, e.description, e.entry_date])).toEqual([
      [null, 'Bill from AWS', '2026-10-15'],
      [v1.result?.entryId, 'Reversal: Bill from AWS', '2026-10-15'],
      [null, 'Bill from AWS (corrected)', '2026-11-01'],
    ]);
    expect(v2.result?.reversalEntryId).toBe(entries[1]?.id);
    expect(v2.result?.seq).toBe(BigInt(Math.max(...entries.map((e) => Number(e.seq)))));
    expect(await net(ws, a['Accounts Payable'])).toBe(-12_000);

    const stale = await refusal(ledger.client.postEntry(bill(a, billId, 2, 11_000), ledger.as(ws)));
    expect(stale).toMatchObject({ code: Code.FailedPrecondition, message: 'version 2 is older than the posted version 3', fields: [{ field: 'version' }] });

    const voided = await ledger.client.voidEntry({ sourceType: 'Bill', sourceId: billId, version: 4n }, ledger.as(ws));
    entries = await entriesOf(ws);
    expect(voided.result).toMatchObject({
      entryId: '',
      reversedEntryId: v2.result?.entryId,
      reversalEntryId: entries.at(-1)?.id,
      seq: BigInt(entries.at(-1)?.seq ?? -1),
    });
    expect(entries.at(-1)).toMatchObject({ reverses_entry_id: v2.result?.entryId, description: 'Void: Bill from AWS (corrected)' });
    expect(await net(ws, a['Accounts Payable'])).toBe(0);
    // A void replays like any version (PostEntry with no lines is the same void).
    expect((await ledger.client.postEntry({ sourceType: 'Bill', sourceId: billId, version: 4n, lines: [] }, ledger.as(ws))).result?.replayed).toBe(true);

    const v5 = await ledger.client.postEntry(bill(a, billId, 5, 3_000), ledger.as(ws));
    expect(v5.result?.reversedEntryId).toBe('');
    expect(await net(ws, a['Accounts Payable'])).toBe(-3_000);
    expect(await eventsOf(ws)).toBe((await entriesOf(ws)).length);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('a new version whose entry fails in the database leaves the previous version booked: the reversal and the new entry are one transaction', async () => {
    const ws = newId();
    const a = await chart(ws);
    const billId = newId();
    const v1 = await ledger.client.postEntry(bill(a, billId, 1, 2_500), ledger.as(ws));
    // Fill November's monthly debits of Rent close to the bigint limit through another source...
    const big = 9_000_000_000_000_000n;
    // Lines this big are refused by the RPC's input rules (amounts below 10^13 dollars, issue #15): the use case is called directly.
    const postings = new PostingUseCases({ db: ledger.db.appDb, logger: createLogger('ledger-test', 'silent') });
    const owner = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
    const many = (n: number) => [
      ...Array.from({ length: n }, () => ({ accountId: a['Rent'], direction: 'debit', amountCents: big })),
      ...Array.from({ length: n }, () => ({ accountId: a['Loans Payable'], direction: 'credit', amountCents: big })),
    ];
    for (let i = 0; i < 4; i++)
      await postings.post(owner, {
        sourceType: 'ManualEntry',
        sourceId: newId(),
        version: 1n,
        date: '2026-11-02',
        description: 'Huge',
        lines: many(250),
      } as Parameters<PostingUseCases['post']>[1]);
    const before = await entriesOf(ws);
    // ...so version 2 of the bill reverses version 1, then overflows November's balance of Rent: all of it rolls back.
    expect(
      (
        await refusal(
          postings
            .post(owner, bill(a, billId, 2, 100, { date: '2026-11-03', lines: many(250) }) as Parameters<PostingUseCases['post']>[1])
            .catch((e: unknown) => {
              throw toConnectError(e);
            }),
        )
      ).code,
    ).toBe(Code.Internal);
    expect(await entriesOf(ws)).toEqual(before);
    expect(await net(ws, a['Accounts Payable'])).toBe(-2_500);
    expect((await ledger.client.postEntry(bill(a, billId, 1, 2_500), ledger.as(ws))).result).toMatchObject({ entryId: v1.result?.entryId, replayed: true });
    const v2 = await ledger.client.postEntry(bill(a, billId, 2, 3_000), ledger.as(ws));
    expect(v2.result?.reversedEntryId).toBe(v1.result?.entryId);
    expect(await net(ws, a['Accounts Payable'])).toBe(-3_000);
  });

  it('refuses bad input with INVALID_ARGUMENT naming the field, and posts nothing', async () => {
    const ws = newId();
    const a = await chart(ws);
    const other = await chart(newId());
    const id = newId();
    const bad = async (body: Body, field: string, message?: string) => {
      const r = await refusal(ledger.client.postEntry(body, ledger.as(ws)));
      expect(r.code, field).toBe(Code.InvalidArgument);
      expect(
        r.fields.map((f) => f.field),
        field,
      ).toContain(field);
      if (message) expect(r.fields.find((f) => f.field === field)?.message).toBe(message);
    };
    const line = (accountId: string | undefined, direction: string, cents: number) => ({ accountId, direction, amountCents: BigInt(cents) });
    await bad(
      bill(a, id, 1, 100, { lines: [line(a['Rent'], 'debit', 100), line(a['Accounts Payable'], 'credit', 99)] }),
      'lines',
      'lines do not balance: debits 100 cents, credits 99 cents',
    );
    await bad(bill(a, id, 1, 100, { lines: [line(a['Rent'], 'debit', 0), line(a['Accounts Payable'], 'credit', 0)] }), 'lines[0].amountCents');
    await bad(bill(a, id, 1, 100, { lines: [line(a['Rent'], 'debit', -5), line(a['Accounts Payable'], 'credit', -5)] }), 'lines[1].amountCents');
    await bad(bill(a, id, 1, 100, { lines: [line(a['Rent'], 'left', 100), line(a['Accounts Payable'], 'credit', 100)] }), 'lines[0].direction');
    await bad(
      bill(a, id, 1, 100, { lines: [line('nope', 'debit', 100), line(a['Accounts Payable'], 'credit', 100)] }),
      'lines[0].accountId',
      'lines[0].accountId must be a UUID',
    );
    await bad(bill(a, id, 1, 100, { lines: [line(a['Rent'], 'debit', 100)] }), 'lines');
    await bad(
      bill(a, id, 1, 100, { lines: [line(a['Rent'], 'debit', 100), line(other['Accounts Payable'], 'credit', 100)] }),
      'lines[1].accountId',
      'lines[1].accountId is not an account of this workspace',
    );
    await bad(bill(a, id, 1, 100, { lines: [line(a['Rent'], 'debit', 100), line(newId(), 'credit', 100)] }), 'lines[1].accountId');
    await bad(
      bill(a, id, 1, 100, { lines: [line(a['Operating Expenses'], 'debit', 100), line(a['Accounts Payable'], 'credit', 100)] }),
      'lines[0].accountId',
      'lines[0].accountId must be a category or sub-category, not a category type or group',
    );
    await bad(bill(a, id, 1, 100, { sourceType: 'WorkspaceTransaction' }), 'sourceType');
    await bad(bill(a, id, 1, 100, { sourceType: 'OpeningBalance' }), 'sourceType');
    await bad(bill(a, 'bill-1', 1, 100), 'sourceId', 'sourceId must be a UUID');
    await bad(bill(a, id, 0, 100), 'version');
    await bad(bill(a, id, 1, 100, { date: '2026-02-30' }), 'date', 'Invalid date format');
    await bad(bill(a, id, 1, 100, { date: undefined }), 'date');
    expect(await entriesOf(ws)).toEqual([]);
    expect(await rows(ledger.db.adminDb, 'select 1 from source_postings where workspace_id = ?', [ws])).toEqual([]);
  });

  it("a Viewer's call is refused; a service's own call (no role) posts", async () => {
    const ws = newId();
    const a = await chart(ws);
    const viewer = await refusal(ledger.client.postEntry(bill(a, newId(), 1, 100), ledger.as(ws, 'Viewer')));
    expect(viewer).toMatchObject({ code: Code.PermissionDenied, message: 'Editing actions are disabled for your account' });
    const asService = { headers: { 'x-ll-workspace-id': ws } };
    expect((await ledger.client.postEntry(bill(a, newId(), 1, 100), asService)).result?.entryId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await entriesOf(ws)).length).toBe(1);
  });

  it('the database itself refuses a second posting of one key (a unique constraint, not only the code)', async () => {
    const ws = newId();
    const a = await chart(ws);
    const billId = newId();
    await ledger.client.postEntry(bill(a, billId, 1, 100), ledger.as(ws));
    await expect(
      withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) =>
        trx('source_postings').insert({ workspace_id: ws, source_type: 'Bill', source_id: billId, version: 1, body_hash: 'other' }),
      ),
    ).rejects.toThrow(/source_postings_pkey/);
    await expect(
      withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) => trx('source_postings').where({ source_id: billId }).update({ body_hash: 'other' })),
    ).rejects.toThrow(/immutable/);
  });
});

describe('the seq a change answers (reads after writes, issue #12)', () => {
  it("is its own last entry's, even when another writer commits a higher-numbered entry before it ends; the current one when it posted nothing", async () => {
    const ws = newId();
    const a = await chart(ws);
    const tenant = { workspaceId: ws, role: 'Owner' as const };
    // Ours and theirs touch different accounts: no balance row locked by one waits for the other.
    const entry = (cents: number, [debit, credit] = ['Hosting and Infrastructure', 'Accounts Payable']) => ({
      workspaceId: ws,
      date: '2026-10-15',
      sourceType: 'ManualEntry' as const,
      description: `entry of ${cents}`,
      lines: [
        { accountId: a[debit] as string, direction: 'debit' as const, amountCents: cents },
        { accountId: a[credit] as string, direction: 'credit' as const, amountCents: cents },
      ],
    });
    const r = await changeInWorkspace(ledger.db.appDb, tenant, async (trx) => {
      await postEntry(trx, entry(100));
      await postEntry(trx, entry(200));
      // A second user's posting, numbered after ours, commits while our change is still open.
      await withTenant(ledger.db.appDb, { workspaceId: ws }, (other) => postEntry(other, entry(300, ['Rent', 'Sales'])));
      return {};
    });
    const [first, ours, theirs] = await entriesOf(ws);
    expect([first?.description, ours?.description, theirs?.description]).toEqual(['entry of 100', 'entry of 200', 'entry of 300']);
    expect(Number(theirs?.seq)).toBeGreaterThan(Number(ours?.seq));
    // Reporting waits for exactly this entry: answering theirs would let a report miss ours.
    expect(r.seq).toBe(Number(ours?.seq));
    const nothing = await changeInWorkspace(ledger.db.appDb, tenant, async () => ({}));
    expect(nothing.seq).toBe(Number(theirs?.seq));
  });
});
