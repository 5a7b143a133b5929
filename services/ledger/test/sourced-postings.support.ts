// Shared setup of the tests of entries booked from another service's documents (PostPartyCredit, PostDocument): one
// real ledger on its own bus for the test file, the chart by name, a refusal's code and fields, an entry's lines.
import { ConnectError, type Code } from '@connectrpc/connect';
import { errorInfoOf, type Role } from '@ledgerline/platform';
import { createTestBus } from '@ledgerline/platform/testing';
import { afterAll, beforeAll } from 'vitest';
import { rows, startLedger, type LedgerHarness } from './support.js';

/** The file's ledger (started before its tests, closed after them) with the lookups these tests share. */
export interface FileLedger extends Pick<LedgerHarness, 'client' | 'db' | 'as'> {
  /** The workspace's chart of accounts: id by account name. */
  chart(workspaceId: string): Promise<Record<string, string>>;
  /** An entry's journal lines, in order. */
  linesOf(entryId: string): Promise<{ account_id: string; direction: string; amount_cents: number }[]>;
}

/** Starts a ledger on a bus named `busName` in the file's beforeAll and closes both in its afterAll. */
export function ledgerForFile(busName: string): FileLedger {
  let bus: Awaited<ReturnType<typeof createTestBus>> | undefined;
  let started: LedgerHarness | undefined;
  beforeAll(async () => {
    bus = await createTestBus(busName);
    started = await startLedger(bus);
  });
  afterAll(async () => {
    await started?.close();
    await bus?.close();
  });
  const ledger = (): LedgerHarness => {
    if (!started) throw new Error('the ledger starts in beforeAll');
    return started;
  };
  return {
    get client() {
      return ledger().client;
    },
    get db() {
      return ledger().db;
    },
    as: (workspaceId: string, role?: Role) => ledger().as(workspaceId, role),
    async chart(workspaceId) {
      const r = await ledger().client.getChartOfAccounts({}, ledger().as(workspaceId));
      return Object.fromEntries(r.chartOfAccounts.map((c) => [c.name, c.id]));
    },
    linesOf: (entryId) =>
      rows(ledger().db.adminDb, 'select account_id::text, direction, amount_cents::int from journal_lines where entry_id = ? order by id', [entryId]),
  };
}

/** The code and field problems of a call that must be refused (fails the test when it is not). */
export async function refusal(p: Promise<unknown>): Promise<{ code: Code; fields: { field: string; message: string }[] }> {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: errorInfoOf(e)?.fields ?? [] };
  }
  throw new Error('expected a refusal');
}
