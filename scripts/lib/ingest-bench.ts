// End-to-end bank ingest (issue #22): a sandbox account with N transactions linked through the gateway, and the
// seconds until banking, the ledger and reporting have each caught up. `npm run bench -- ingest` calls `benchIngest`.
import type { Knex } from 'knex';
import { onboardBody, signedUpUser, startSystem, type System } from '../../tests/support/system.js';

export interface IngestStage {
  /** Seconds from the link request until this stage had caught up. */
  seconds: number;
  /** Transactions per second to this stage. */
  transactionsPerSecond: number;
}

export interface IngestResult {
  transactions: number;
  /** Banking stored every transaction (the sync job completed). */
  bankingStored: IngestStage;
  /** Banking's outbox empty: every event of the sync published. */
  bankingPublished: IngestStage;
  /** The ledger booked every transaction (a row each; entries for the non-zero ones). */
  ledgerBooked: IngestStage;
  /** The ledger's outbox empty: every posting published. */
  ledgerPublished: IngestStage;
  /** Reporting applied every entry the ledger posted (the headline: end to end). */
  reportingApplied: IngestStage;
  /** Peak resident set size of the process running every service (MiB), sampled every 100 ms. */
  peakRssMiB: number;
  entries: number;
  lines: number;
  /** Outbox rows written (events before any batching is one per transaction or entry). */
  bankingOutboxRows: number;
  ledgerOutboxRows: number;
}

const count = async (db: Knex, sql: string, bindings: readonly unknown[] = []): Promise<number> =>
  Number(((await db.raw(sql, bindings as Knex.RawBinding[])).rows[0] as { n: string | number }).n);

/** Links a First Platypus Bank item of `transactions` sandbox transactions and times every stage. */
async function linkAndWait(system: System, transactions: number, timeoutMs: number, log: (line: string) => void): Promise<Omit<IngestResult, 'peakRssMiB'>> {
  const plaid = system.plaid!;
  const banking = system.bankingDb!.adminDb;
  const ledger = system.ledgerDb!.adminDb;
  const reporting = system.reportingDb!.adminDb;
  const { token, user } = await signedUpUser(system);
  const onboarded = await system.api('POST', '/onboard-user', { token, body: onboardBody });
  if (onboarded.status !== 200) throw new Error(`onboard-user answered ${onboarded.status}`);
  const workspaceId = user.workspace.id;
  const PLATYPUS = 'ins_109508';
  const publicToken = plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions, seed: 22, initial_webhook: false } },
  });
  const item = plaid.listItems().at(-1)!;
  const institution = plaid.institutions().find((i) => i.institutionId === PLATYPUS)!;
  const accounts = item.accounts.map((a) => ({
    id: a.account_id,
    name: a.name,
    mask: a.mask,
    type: a.subtype === 'credit card' ? 'credit' : 'depository',
    subtype: a.subtype,
  }));
  const started = performance.now();
  const linked = await system.api('POST', '/accounts', {
    token,
    body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
  });
  if (linked.status !== 200) throw new Error(`POST /accounts answered ${linked.status}: ${JSON.stringify(linked.body)}`);
  const at: Partial<Record<'bankingStored' | 'bankingPublished' | 'ledgerBooked' | 'ledgerPublished' | 'reportingApplied', number>> = {};
  const stage = (seconds: number): IngestStage => ({ seconds: Math.round(seconds * 100) / 100, transactionsPerSecond: Math.round(transactions / seconds) });
  let last = '';
  for (;;) {
    const now = performance.now();
    if (now - started > timeoutMs) throw new Error(`ingest of ${transactions} did not catch up in ${timeoutMs} ms (${last})`);
    const stored = at.bankingStored ? transactions : await count(banking, 'select count(*) as n from bank_transactions where workspace_id = ?', [workspaceId]);
    const syncDone = await count(banking, "select count(*) as n from sync_jobs where workspace_id = ? and status = 'completed'", [workspaceId]);
    if (!at.bankingStored && stored >= transactions && syncDone > 0) at.bankingStored = now;
    const bankingBacklog = await count(banking, 'select count(*) as n from outbox where published_at is null');
    if (at.bankingStored && !at.bankingPublished && bankingBacklog === 0) at.bankingPublished = now;
    const booked = await count(ledger, 'select count(*) as n from workspace_transactions where workspace_id = ?', [workspaceId]);
    if (!at.ledgerBooked && booked >= transactions) at.ledgerBooked = now;
    const ledgerBacklog = await count(ledger, 'select count(*) as n from outbox where published_at is null');
    if (at.ledgerBooked && !at.ledgerPublished && ledgerBacklog === 0) at.ledgerPublished = now;
    if (at.ledgerBooked) {
      const posted = await count(ledger, 'select count(*) as n from journal_entries where workspace_id = ?', [workspaceId]);
      const applied = await count(reporting, 'select count(*) as n from projected_entries where workspace_id = ?', [workspaceId]);
      if (applied >= posted && at.ledgerPublished) at.reportingApplied = now;
      last = `banked ${stored}, booked ${booked}, entries ${posted}, applied by reporting ${applied}`;
    } else last = `banked ${stored}, booked ${booked}, banking backlog ${bankingBacklog}`;
    if (at.reportingApplied) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`ingest ${transactions}: ${last}`);
  const seconds = (k: keyof typeof at) => ((at[k] as number) - started) / 1000;
  return {
    transactions,
    bankingStored: stage(seconds('bankingStored')),
    bankingPublished: stage(seconds('bankingPublished')),
    ledgerBooked: stage(seconds('ledgerBooked')),
    ledgerPublished: stage(seconds('ledgerPublished')),
    reportingApplied: stage(seconds('reportingApplied')),
    entries: await count(ledger, 'select count(*) as n from journal_entries where workspace_id = ?', [workspaceId]),
    lines: await count(ledger, 'select count(*) as n from journal_lines where workspace_id = ?', [workspaceId]),
    bankingOutboxRows: await count(banking, 'select count(*) as n from outbox where workspace_id = ?', [workspaceId]),
    ledgerOutboxRows: await count(ledger, 'select count(*) as n from outbox where workspace_id = ?', [workspaceId]),
  };
}

/** Each size on a fresh system (fresh databases, one process: the services in the bench's own, as `npm start`). */
export async function benchIngest(options: { sizes: readonly number[]; log?: (line: string) => void }): Promise<IngestResult[]> {
  const log = options.log ?? (() => undefined);
  const results: IngestResult[] = [];
  for (const transactions of options.sizes) {
    const system = await startSystem({
      banking: true,
      ledger: true,
      reporting: true,
      gatewayEnv: { RATE_LIMIT_LOGIN_MAX: '1000', RATE_LIMIT_CODE_MAX: '1000', IDENTITY_TIMEOUT_MS: '15000', SERVICE_TIMEOUT_MS: '15000' },
      // The production settings of the sync (the test system's short ack wait would re-deliver long jobs).
      bankingEnv: { SYNC_ACK_WAIT_MS: '600000' },
    });
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 100);
    try {
      const r = await linkAndWait(system, transactions, Math.max(300_000, transactions * 20), log);
      results.push({ ...r, peakRssMiB: Math.round(peak / 2 ** 20) });
      log(JSON.stringify(results.at(-1)));
    } finally {
      clearInterval(sampler);
      await system.stop();
    }
  }
  return results;
}

/** The report's table. */
export function ingestTable(results: readonly IngestResult[]): string {
  return [
    '| transactions | banking stored | banking published | ledger booked | ledger published | reporting caught up (end to end) | transactions/s end to end | peak RSS | outbox rows banking / ledger |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.transactions} | ${r.bankingStored.seconds} s | ${r.bankingPublished.seconds} s | ${r.ledgerBooked.seconds} s | ${r.ledgerPublished.seconds} s | ${r.reportingApplied.seconds} s | **${r.reportingApplied.transactionsPerSecond}** | ${r.peakRssMiB} MiB | ${r.bankingOutboxRows} / ${r.ledgerOutboxRows} |`,
    ),
  ].join('\n');
}
