import { createHash } from 'node:crypto';
import type { Client } from '@connectrpc/connect';
import { tenantHeaders, type TenantContext } from '@ledgerline/platform';
import type { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { MIN_DATE } from '../domain/dates.js';
import type { Account } from '../domain/report.js';

export type LedgerClient = Client<typeof LedgerService>;

/**
 * The chart of accounts (names, tree, class groups, groups, tags) comes from the ledger over Connect
 * and is kept per workspace for a few seconds; a report that meets an account it does not know asks
 * again at once (a category created a moment ago). See README "Account metadata".
 */
export interface Chart {
  accounts: Account[];
  /**
   * A digest of the chart's content: it changes with a rename, a new account, a move, so reports built on
   * another generation are stale. Derived from the content, so every replica names the same chart alike.
   */
  generation: string;
}

export class AccountDirectory {
  private readonly cache = new Map<string, { at: number; accounts: Account[]; ids: Set<string>; generation: string }>();

  constructor(private readonly ledger: LedgerClient, private readonly ttlMs: number) {}

  async chart(tenant: TenantContext & { workspaceId: string }, mustKnow: Iterable<string> = []): Promise<Chart> {
    const hit = this.cache.get(tenant.workspaceId);
    if (hit && Date.now() - hit.at < this.ttlMs && [...mustKnow].every((id) => hit.ids.has(id))) return hit;
    // Balances as of the first possible date: the chart without the ledger summing every line.
    const r = await this.ledger.getChartOfAccounts({ endDate: MIN_DATE }, { headers: tenantHeaders({ workspaceId: tenant.workspaceId, userId: tenant.userId, role: tenant.role }) });
    const accounts: Account[] = r.chartOfAccounts.map((c) => ({ id: c.id, name: c.name, coaId: c.coaId, type: c.type, level: c.level, group: c.group, tag: c.tag, parentId: c.parentId || null, bankAccountId: c.bankAccountId || null }));
    const generation = createHash('sha1').update(JSON.stringify(accounts)).digest('base64url').slice(0, 16);
    if (this.cache.size > 10_000) this.cache.clear();
    const entry = { at: Date.now(), accounts, ids: new Set(accounts.map((a) => a.id)), generation };
    this.cache.set(tenant.workspaceId, entry);
    return entry;
  }
}
