// Read-your-writes with two users writing to one workspace at once (issue #12, "Must show"): the Owner and
// an Admin each run a loop of write → read pairs, both loops at the same time, while unrelated bank
// postings keep moving the workspace's sequence under them. Every read names the `seq` its user's write
// answered and must show that write — checked against what the user wrote (each user has its own bank
// account, transactions and categories, so the oracle is that user's own state), never against another
// report. Writes: re-categorising (PATCH /transactions/{id}), a split and its undoing, an opening balance,
// creating a category (and posting to it), renaming and moving a category, the fiscal year's first month.
// RYW_PAIRS (default 1,000) is the number of write → read pairs of both users together; RYW_SEED repeats a run.
import { randomUUID } from 'node:crypto';
import { newId } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_ID } from '../../services/gateway/test/support/fake-identity.js';
import { startReportingHarness, type ReportingApiHarness } from './reporting.harness.js';
import type { Answer, Tenant } from './ledger.harness.js';

const PAIRS = Number(process.env.RYW_PAIRS ?? 1_000);
const SEED = Number(process.env.RYW_SEED ?? Date.now() % 1_000_000);
const MONTHS = ['01', '02', '03', '04', '05', '06'] as const;
const LAST_DAY: Record<string, string> = { '01': '31', '02': '28', '03': '31', '04': '30', '05': '31', '06': '30' };
/** The income booked in each month of 2025 (on the background account): what the fiscal year moves between Retained Earnings and Net Income. */
const INCOME_2025 = Array.from({ length: 12 }, (_, i) => 100_000 + (i + 1) * 1_111);
const MAX_CREATED = 6;

interface Row {
  id: string | null;
  name: string;
  rowType: string;
  total: number;
  children: Row[];
}
interface Txn {
  id: string;
  month: string;
  cents: number;
  alloc: Map<string, number>;
  children: string[] | null;
}
interface Category {
  id: string;
  name: string;
  parentId: string;
}
interface User {
  name: string;
  tenant: Tenant;
  bankCategoryId: string;
  openingCents: number;
  txns: Txn[];
  categories: Category[];
  nextCoa: number;
  renames: number;
}
interface Stale {
  user: string;
  write: string;
  seq: number;
  headerSeq: number;
  caughtUp: boolean;
  problem: string;
  around?: unknown;
}

let h: ReportingApiHarness;
let owner: Tenant;
let users: User[];
let background: { account: string; stop: boolean; posted: number; loop?: Promise<void> };
let groups: { operating: string; other: string };
let retainedEarningsId: string;
let fiscalMonth = 1;
let baits = 0;

/** mulberry32: a small seeded generator, so a failing run can be repeated with RYW_SEED. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = rng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
const dollars = (cents: number) => cents / 100;
const pad = (m: number) => String(m).padStart(2, '0');

const walk = (rows: Row[], parent: Row | null, fn: (r: Row, parent: Row | null) => void) => {
  for (const r of rows) {
    fn(r, parent);
    walk(r.children, r, fn);
  }
};
const byId = (rows: Row[]) => {
  const m = new Map<string, { row: Row; parent: Row | null }>();
  walk(rows, null, (row, parent) => {
    if (row.id) m.set(row.id, { row, parent });
  });
  return m;
};

/** One lock for the fiscal year (the only thing both users change): a user's fiscal-year write and its read go together. */
let fiscalLock: Promise<void> = Promise.resolve();
async function withFiscalLock<T>(fn: () => Promise<T>): Promise<T> {
  const before = fiscalLock;
  let release!: () => void;
  fiscalLock = new Promise((r) => {
    release = r;
  });
  await before;
  try {
    return await fn();
  } finally {
    release();
  }
}

beforeAll(async () => {
  h = await startReportingHarness();
  owner = h.tenant();
  // A second user of the same workspace: an Admin with a session of their own.
  const adminToken = `tok-${randomUUID()}`;
  h.identity.sessions.set(adminToken, {
    userId: newId(),
    workspaces: [{ id: owner.workspaceId, name: 'Books', organizationId: ORG_ID, organizationName: 'Acme', role: 'Admin', isDefault: true }],
    defaultWorkspaceId: owner.workspaceId,
  });
  const admin: Tenant = { ...owner, token: adminToken };

  const accounts = [await owner.banking.link({ name: 'Owner Checking', mask: '1111' }), await owner.banking.link({ name: 'Admin Checking', mask: '2222' })];
  background = { account: await owner.banking.link({ name: 'Operations', mask: '9999' }), stop: false, posted: 0 };
  // Each user's own transactions: three a month, January to June 2026, amounts all different.
  const planned: { account: number; month: string; cents: number }[] = [];
  for (const [u] of accounts.entries()) {
    for (const [i, month] of MONTHS.entries())
      for (let k = 0; k < 3; k++) planned.push({ account: u, month, cents: 10_000 + u * 50_000 + i * 1_000 + k * 101 + Math.floor(random() * 90) });
  }
  for (const p of planned)
    await owner.banking.add(accounts[p.account] as string, {
      amountCents: -p.cents,
      date: `2026-${p.month}-${pad(10 + (p.cents % 15))}`,
      name: `Supplier ${p.cents}`,
    });
  // 2025's income, month by month, on the account nobody edits.
  for (const [i, cents] of INCOME_2025.entries())
    await owner.banking.add(background.account, { amountCents: cents, date: `2025-${pad(i + 1)}-15`, name: `Customer ${i + 1}` });
  const listed = (await h.transactions(owner, planned.length + 12, 'take=100')).data as { id: string; amount: number }[];

  const cats = (await h.api('GET', '/categories', { tenant: owner })).body.categories as { id: string; name: string }[];
  const cat = (name: string) => {
    const c = cats.find((x) => x.name === name);
    if (!c) throw new Error(`no category ${name}`);
    return c.id;
  };
  const parents = (await h.api('GET', '/categories/chart-of-accounts', { tenant: owner })).body.parentCategories as {
    id: string;
    name: string;
    coaId: number;
  }[];
  const group = (coaId: number) => {
    const g = parents.find((x) => x.coaId === coaId);
    if (!g) throw new Error(`no parent category ${coaId}`);
    return g.id;
  };
  groups = { operating: group(60000), other: group(70000) };
  retainedEarningsId = cat('Retained Earnings');
  users = [];
  for (const [u, tenant] of [owner, admin].entries()) {
    const name = u === 0 ? 'Owner' : 'Admin';
    const user: User = {
      name,
      tenant,
      bankCategoryId: cat(`${name} Checking ••${u === 0 ? '1111' : '2222'}`),
      openingCents: 0,
      txns: [],
      categories: [],
      nextCoa: 63_000 + u * 1_000,
      renames: 0,
    };
    for (let k = 0; k < 3; k++) {
      const r = await h.api('POST', '/categories', { tenant, body: { name: `${name} cost ${k}`, coaId: user.nextCoa++, parentId: groups.operating } });
      expect(r.status).toBe(201);
      user.categories.push({ id: r.body.category.id, name: r.body.category.name, parentId: groups.operating });
    }
    for (const p of planned.filter((x) => x.account === u)) {
      const id = listed.find((x) => Math.round(x.amount * 100) === -p.cents)?.id;
      if (!id) throw new Error(`transaction of ${p.cents} not listed`);
      const to = pick(user.categories).id;
      const r = await h.api('PATCH', `/transactions/${id}`, { tenant, body: { categoryId: to } });
      expect(r.status).toBe(200);
      user.txns.push({ id, month: p.month, cents: p.cents, alloc: new Map([[to, p.cents]]), children: null });
    }
    users.push(user);
  }
  await h.caughtUp(owner);
}, 180_000);

afterAll(async () => {
  if (background) background.stop = true;
  await background?.loop;
  await h?.close();
});

/** A report read as `user`, naming `seq`. */
const report = (user: User, path: string, query: string, seq: number) => h.api('GET', `/financial-data/${path}?${query}&seq=${seq}`, { tenant: user.tenant });
const monthQuery = (month: string) => `startDate=2026-${month}-01&endDate=2026-${month}-${LAST_DAY[month]}&periodicity=totals_only`;
const pnlOf = (month: string) => ({ path: 'profit-loss/v3', query: monthQuery(month) });
const BANK_QUERY = 'startDate=2026-12-01&endDate=2026-12-31&periodicity=totals_only';
const FY_PNL_QUERY = 'endDate=2025-12-31&periodicity=totals_only';
const FY_BS_QUERY = 'startDate=2025-12-01&endDate=2025-12-31&periodicity=totals_only';

/** What the user's own categories must show in the P&L of `month`: each under its parent, with its name and the user's amounts. */
function checkPnl(user: User, month: string, data: Row[]): string | null {
  const rows = byId(data);
  for (const c of user.categories) {
    const hit = rows.get(c.id);
    if (!hit) return `no row for ${c.name} (${c.id})`;
    if (hit.row.name !== c.name) return `${c.id} is named ${hit.row.name}, not ${c.name}`;
    if (hit.parent?.id !== c.parentId) return `${c.name} is under ${hit.parent?.name ?? 'nothing'} (${hit.parent?.id ?? ''}), not ${c.parentId}`;
    const want = user.txns.filter((x) => x.month === month).reduce((s, x) => s + (x.alloc.get(c.id) ?? 0), 0);
    if (Math.round(hit.row.total * 100) !== want) return `${c.name} in 2026-${month}: ${hit.row.total}, not ${dollars(want)}`;
  }
  return null;
}

/** The user's bank account on the balance sheet at the end of 2026: the opening balance plus its transactions. */
function checkBank(user: User, data: Row[]): string | null {
  const hit = byId(data).get(user.bankCategoryId);
  const want = user.openingCents - user.txns.reduce((s, x) => s + x.cents, 0);
  if (!hit) return 'no row for the bank account';
  if (Math.round(hit.row.total * 100) !== want) return `bank account: ${hit.row.total}, not ${dollars(want)}`;
  return null;
}

/** The user's next write and the read that must show it. Answers what was wrong ('' when nothing). */
type Step = { kind: string; write: string; seq: number; read: () => Promise<{ answer: Answer; problem: string | null }> };

/**
 * The write, after (for half of them) a read of the very report that will be asked after it: both caches
 * then hold that report as it was before the write, the answer the read after it must not be given.
 */
async function mustWrite(user: User, method: string, path: string, body: unknown, bait: { path: string; query: string }): Promise<Answer> {
  if (random() < 0.5) {
    const before = await h.api('GET', `/financial-data/${bait.path}?${bait.query}`, { tenant: user.tenant });
    if (before.status !== 200) throw new Error(`${user.name}: the report before the write answered ${before.status} ${JSON.stringify(before.body)}`);
    baits++;
  }
  const r = await h.api(method, path, { tenant: user.tenant, body });
  if (r.status >= 300 || !Number.isInteger(r.body.seq)) throw new Error(`${user.name}: ${method} ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

async function recategorise(user: User): Promise<Step> {
  const txn = pick(user.txns.filter((x) => !x.children));
  const from = [...txn.alloc.keys()][0];
  const to = pick(user.categories.filter((c) => c.id !== from));
  const r = await mustWrite(user, 'PATCH', `/transactions/${txn.id}`, { categoryId: to.id }, pnlOf(txn.month));
  txn.alloc = new Map([[to.id, txn.cents]]);
  return pnlStep(user, 'recategorise', `PATCH /transactions/${txn.id} → ${to.name}`, r.body.seq, txn.month);
}

async function splitOrJoin(user: User): Promise<Step> {
  const txn = pick(user.txns);
  const [a, b, c] = [...user.categories].sort(() => random() - 0.5) as [Category, Category, Category];
  if (!txn.children) {
    const second = Math.floor(txn.cents * (0.2 + random() * 0.3));
    const third = Math.floor((txn.cents - second) * 0.3);
    const first = txn.cents - second - third;
    const r = await mustWrite(
      user,
      'POST',
      '/transactions/split',
      {
        parentTransaction: { id: txn.id, amount: dollars(first), categoryId: a.id },
        splitTransactions: [
          { amount: dollars(second), categoryId: b.id },
          { amount: dollars(third), categoryId: c.id },
        ],
      },
      pnlOf(txn.month),
    );
    txn.children = (r.body.transaction.splittedChildren as { id: string }[]).map((x) => x.id);
    const alloc = new Map<string, number>();
    for (const [id, cents] of [
      [a.id, first],
      [b.id, second],
      [c.id, third],
    ] as const)
      alloc.set(id, (alloc.get(id) ?? 0) + cents);
    txn.alloc = alloc;
    return pnlStep(
      user,
      'split',
      `POST /transactions/split ${txn.id}: ${dollars(first)} ${a.name}, ${dollars(second)} ${b.name}, ${dollars(third)} ${c.name}`,
      r.body.seq,
      txn.month,
    );
  }
  const r = await mustWrite(
    user,
    'POST',
    '/transactions/update-split',
    { parentTransaction: { id: txn.id, amount: dollars(txn.cents), categoryId: a.id }, deleteTransactionIds: txn.children },
    pnlOf(txn.month),
  );
  txn.children = null;
  txn.alloc = new Map([[a.id, txn.cents]]);
  return pnlStep(user, 'unsplit', `POST /transactions/update-split ${txn.id}: whole to ${a.name}`, r.body.seq, txn.month);
}

async function openingBalance(user: User): Promise<Step> {
  let cents = user.openingCents;
  while (cents === user.openingCents) cents = 100_000 + Math.floor(random() * 900_000);
  const r = await mustWrite(
    user,
    'PUT',
    `/categories/${user.bankCategoryId}/opening-balance`,
    { openingBalance: dollars(cents), openingBalanceDate: '2025-12-31' },
    { path: 'balance-sheet/v2', query: BANK_QUERY },
  );
  user.openingCents = cents;
  return {
    kind: 'opening balance',
    write: `PUT opening balance ${dollars(cents)}`,
    seq: r.body.seq,
    read: async () => {
      const answer = await report(user, 'balance-sheet/v2', BANK_QUERY, r.body.seq);
      return { answer, problem: answer.status === 200 ? checkBank(user, answer.body.data) : `status ${answer.status}` };
    },
  };
}

/** Creating a category is two pairs: the new row (empty) in the next report, then a posting to it. */
async function createCategory(user: User, done: (s: Step) => Promise<void>): Promise<void> {
  const parentId = pick([groups.operating, groups.other]);
  const name = `${user.name} new ${user.nextCoa}`;
  const month = pick(MONTHS);
  const r = await mustWrite(user, 'POST', '/categories', { name, coaId: user.nextCoa++, parentId }, pnlOf(month));
  user.categories.push({ id: r.body.category.id, name, parentId });
  await done(pnlStep(user, 'create category', `POST /categories ${name}`, r.body.seq, month));
  const txn = pick(user.txns.filter((x) => !x.children));
  const p = await mustWrite(user, 'PATCH', `/transactions/${txn.id}`, { categoryId: r.body.category.id }, pnlOf(txn.month));
  txn.alloc = new Map([[r.body.category.id, txn.cents]]);
  await done(pnlStep(user, 'post to new category', `PATCH /transactions/${txn.id} → ${name} (new)`, p.body.seq, txn.month));
}

async function rename(user: User): Promise<Step> {
  const c = pick(user.categories);
  const name = `${user.name} cost r${++user.renames}`;
  const month = pick(MONTHS);
  const r = await mustWrite(user, 'PATCH', '/categories/update', { id: c.id, name }, pnlOf(month));
  const was = c.name;
  c.name = name;
  return pnlStep(user, 'rename', `PATCH /categories/update ${was} → ${name}`, r.body.seq, month);
}

async function move(user: User): Promise<Step> {
  const c = pick(user.categories);
  const parentId = c.parentId === groups.operating ? groups.other : groups.operating;
  const month = pick(MONTHS);
  const r = await mustWrite(user, 'PATCH', '/categories/move', { categoryId: c.id, parentId }, pnlOf(month));
  c.parentId = parentId;
  return pnlStep(user, 'move', `PATCH /categories/move ${c.name} → ${parentId === groups.other ? 'Other Expenses' : 'Operating Expenses'}`, r.body.seq, month);
}

/** The fiscal year's first month; its read (under the same lock) checks 2025's P&L period and Net Income, or Retained Earnings at the end of 2025. */
async function fiscalYear(user: User): Promise<Step> {
  let month = fiscalMonth;
  while (month === fiscalMonth) month = 1 + Math.floor(random() * 12);
  const onPnl = random() < 0.5;
  const r = await mustWrite(
    user,
    'PATCH',
    '/categories/fiscal-year',
    { fiscalYearStartMonth: month },
    onPnl ? { path: 'profit-loss/v3', query: FY_PNL_QUERY } : { path: 'balance-sheet/v2', query: FY_BS_QUERY },
  );
  fiscalMonth = month;
  const before = INCOME_2025.slice(0, month - 1).reduce((s, x) => s + x, 0);
  const within = INCOME_2025.slice(month - 1).reduce((s, x) => s + x, 0);
  if (onPnl) {
    return {
      kind: 'fiscal year (P&L)',
      write: `PATCH /categories/fiscal-year ${month} (P&L to 2025-12-31)`,
      seq: r.body.seq,
      read: async () => {
        const answer = await report(user, 'profit-loss/v3', FY_PNL_QUERY, r.body.seq);
        if (answer.status !== 200) return { answer, problem: `status ${answer.status}` };
        const { startDate, fiscalYearStartMonth } = answer.body.header;
        if (startDate !== `2025-${pad(month)}-01` || fiscalYearStartMonth !== month)
          return { answer, problem: `period starts ${startDate} (fiscal month ${fiscalYearStartMonth}), not 2025-${pad(month)}-01` };
        const net = (answer.body.report.data as Row[]).find((x) => x.name === 'Net Income');
        return { answer, problem: Math.round((net?.total ?? NaN) * 100) === within ? null : `Net Income ${net?.total}, not ${dollars(within)}` };
      },
    };
  }
  return {
    kind: 'fiscal year (balance sheet)',
    write: `PATCH /categories/fiscal-year ${month} (balance sheet at 2025-12-31)`,
    seq: r.body.seq,
    read: async () => {
      const answer = await report(user, 'balance-sheet/v2', FY_BS_QUERY, r.body.seq);
      if (answer.status !== 200) return { answer, problem: `status ${answer.status}` };
      const re = byId(answer.body.data).get(retainedEarningsId)?.row;
      return { answer, problem: Math.round((re?.total ?? NaN) * 100) === before ? null : `Retained Earnings ${re?.total}, not ${dollars(before)}` };
    },
  };
}

/** For a stale answer: the workspace's entries and chart changes near `seq` in the ledger, and whether reporting had applied each. */
async function around(seq: number) {
  const entries = (
    await h.ledger.db.adminDb.raw(
      'select seq::int, source_type, source_id, reverses_entry_id is not null as reversal from journal_entries where workspace_id = ? and seq between ? and ? order by seq',
      [owner.workspaceId, seq - 6, seq + 6],
    )
  ).rows as { seq: number }[];
  const applied = new Set(
    (
      (
        await h.reporting.db.adminDb.raw(
          'select seq::int from projected_entries where workspace_id = ? and seq between ? and ? union select seq::int from chart_changes where workspace_id = ? and seq between ? and ?',
          [owner.workspaceId, seq - 6, seq + 6, owner.workspaceId, seq - 6, seq + 6],
        )
      ).rows as { seq: number }[]
    ).map((r) => r.seq),
  );
  return entries.map((e) => ({ ...e, applied: applied.has(e.seq) }));
}

function pnlStep(user: User, kind: string, write: string, seq: number, month: string): Step {
  return {
    kind,
    write,
    seq,
    read: async () => {
      const answer = await report(user, 'profit-loss/v3', monthQuery(month), seq);
      return {
        answer,
        problem: answer.status === 200 ? checkPnl(user, month, answer.body.report.data) : `status ${answer.status} ${JSON.stringify(answer.body)}`,
      };
    },
  };
}

describe('two users writing to one workspace at once', () => {
  it(`every report read after a user's own write (entries and chart changes) shows it: ${PAIRS} pairs, zero stale`, async () => {
    const stale: Stale[] = [];
    const counts = new Map<string, number>();
    let pairs = 0;
    // Answers whose etag one of the two users was already given for the same report: the caches (reporting's
    // and the gateway's) confirmed a held answer rather than building it again — the case that must not be stale.
    const etags = new Set<string>();
    let servedAgain = 0;
    const check = (user: User) => async (step: Step) => {
      const { answer, problem } = await step.read();
      pairs++;
      const etag = answer.headers.get('etag') ?? '';
      if (etags.has(etag)) servedAgain++;
      etags.add(etag);
      counts.set(step.kind, (counts.get(step.kind) ?? 0) + 1);
      const header = answer.body?.header ?? {};
      const why = problem ?? (header.caughtUp !== true ? 'not caught up' : header.seq < step.seq ? 'header.seq below the write' : null);
      if (why) {
        const s: Stale = {
          user: user.name,
          write: step.write,
          seq: step.seq,
          headerSeq: header.seq,
          caughtUp: header.caughtUp,
          problem: why,
          around: await around(step.seq),
        };
        stale.push(s);
        console.error(`STALE ${JSON.stringify(s)}`);
      }
    };
    // Unrelated postings on the third account: the workspace's sequence keeps moving under both users.
    background.loop = (async () => {
      while (!background.stop) {
        await owner.banking.add(background.account, {
          amountCents: -(100 + Math.floor(random() * 10_000)),
          date: `2026-${pick(MONTHS)}-0${1 + Math.floor(random() * 9)}`,
          name: 'Card spend',
        });
        background.posted++;
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
    const perUser = PAIRS / users.length;
    const started = Date.now();
    await Promise.all(
      users.map(async (user) => {
        const done = check(user);
        let mine = 0;
        const counted = async (s: Step) => {
          mine++;
          await done(s);
        };
        while (mine < perUser) {
          const x = random();
          if (x < 0.3) await counted(await recategorise(user));
          else if (x < 0.45) await counted(await splitOrJoin(user));
          else if (x < 0.55) await counted(await openingBalance(user));
          else if (x < 0.62 && user.categories.length < 3 + MAX_CREATED && mine + 2 <= perUser) await createCategory(user, counted);
          else if (x < 0.77) await counted(await rename(user));
          else if (x < 0.9) await counted(await move(user));
          else await withFiscalLock(async () => counted(await fiscalYear(user)));
        }
      }),
    );
    background.stop = true;
    await background.loop;
    console.warn(
      `read-your-writes: ${pairs} pairs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${background.posted} background postings, ${servedAgain} answers served again from a cache, ${baits} reads before a write (the stale answer held in both caches), seed ${SEED}, ${JSON.stringify(Object.fromEntries(counts))}`,
    );
    expect(pairs).toBe(PAIRS);
    expect(stale).toEqual([]);
    // And the read model agrees with the ledger at the end — once the ledger has booked every background posting.
    // The loop publishes banking's events faster than a loaded machine books them; comparing before the ledger's
    // ingest has drained compares reporting with a moving target (full-suite runs failed that way, nothing lost).
    const booked = async () =>
      Number(
        (
          (
            await h.ledger.db.adminDb.raw(
              "select count(*)::int as n from workspace_transactions where workspace_id = ? and name = 'Card spend' and current_entry_id is not null",
              [owner.workspaceId],
            )
          ).rows[0] as { n: number }
        ).n,
      );
    await expectEventually(async () => expect(await booked()).toBe(background.posted), { timeoutMs: 240_000, intervalMs: 500 });
    await h.caughtUp(owner, 90_000);
  }, 900_000);
});
