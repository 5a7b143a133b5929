import { createHash } from 'node:crypto';
import type { Client } from '@connectrpc/connect';
import { tenantHeaders, type Knex, type TenantContext } from '@ledgerline/platform';
import type { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { MIN_DATE } from '../domain/dates.js';
import type { Account } from '../domain/report.js';
import { bankCurrencies, currentChartVersion } from '../store/balances.js';

export type LedgerClient = Client<typeof LedgerService>;

/**
 * The chart of accounts (names, tree, class groups, roles, groups, tags, the fiscal year's first month)
 * comes from the ledger over Connect and is kept per workspace while the workspace's chart version (bumped
 * by the chart.changed consumer, in the database, so every replica sees it) is the one read before asking,
 * and for at most `ttlMs`; a report that meets an account it does not know asks again at once. See README
 * "Account metadata".
 */
export interface Chart {
  accounts: Account[];
  /** The fiscal year starts on the first of this month (1 = January; the ledger's 0 is read as 1). */
  fiscalYearStartMonth: number;
  /**
   * A digest of the chart's content: it changes with a rename, a new account, a move, so reports built on
   * another generation are stale. Derived from the content, so every replica names the same chart alike.
   */
  generation: string;
}

export class AccountDirectory {
  private readonly cache = new Map<
    string,
    { at: number; version: number; accounts: Account[]; ids: Set<string>; generation: string; fiscalYearStartMonth: number }
  >();

  /** `db`: where the chart versions are read (none: the cache lives `ttlMs` alone). */
  constructor(
    private readonly ledger: LedgerClient,
    private readonly ttlMs: number,
    private readonly db?: Knex,
  ) {}

  async chart(tenant: TenantContext & { workspaceId: string }, mustKnow: Iterable<string> = []): Promise<Chart> {
    // Read before asking the ledger: a change that lands meanwhile bumps it past what the entry records.
    const version = this.db ? await currentChartVersion(this.db, tenant.workspaceId) : 0;
    const hit = this.cache.get(tenant.workspaceId);
    if (hit && hit.version === version && Date.now() - hit.at < this.ttlMs && [...mustKnow].every((id) => hit.ids.has(id))) return hit;
    // Balances as of the first possible date: the chart without the ledger summing every line.
    const r = await this.ledger.getChartOfAccounts(
      { endDate: MIN_DATE },
      { headers: tenantHeaders({ workspaceId: tenant.workspaceId, userId: tenant.userId, role: tenant.role }) },
    );
    const accounts: Account[] = r.chartOfAccounts.map((c) => ({
      id: c.id,
      name: c.name,
      coaId: c.coaId,
      type: c.type,
      level: c.level,
      group: c.group,
      tag: c.tag,
      parentId: c.parentId || null,
      bankAccountId: c.bankAccountId || null,
      systemKey: c.systemKey,
    }));
    if (this.db && accounts.some((a) => a.bankAccountId)) {
      const currencies = await bankCurrencies(this.db, tenant.workspaceId);
      for (const a of accounts) if (a.bankAccountId) a.currency = currencies.get(a.bankAccountId) ?? '';
    }
    const fiscalYearStartMonth = r.fiscalYearStartMonth >= 1 && r.fiscalYearStartMonth <= 12 ? r.fiscalYearStartMonth : 1;
    const generation = createHash('sha1')
      .update(JSON.stringify([fiscalYearStartMonth, accounts]))
      .digest('base64url')
      .slice(0, 16);
    if (this.cache.size > 10_000) this.cache.clear();
    const entry = { at: Date.now(), version, accounts, ids: new Set(accounts.map((a) => a.id)), generation, fiscalYearStartMonth };
    this.cache.set(tenant.workspaceId, entry);
    return entry;
  }
}
