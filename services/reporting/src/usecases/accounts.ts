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
export class AccountDirectory {
  private readonly cache = new Map<string, { at: number; accounts: Account[]; ids: Set<string> }>();

  constructor(private readonly ledger: LedgerClient, private readonly ttlMs: number) {}

  async accounts(tenant: TenantContext & { workspaceId: string }, mustKnow: Iterable<string> = []): Promise<Account[]> {
    const hit = this.cache.get(tenant.workspaceId);
    if (hit && Date.now() - hit.at < this.ttlMs && [...mustKnow].every((id) => hit.ids.has(id))) return hit.accounts;
    // Balances as of the first possible date: the chart without the ledger summing every line.
    const r = await this.ledger.getChartOfAccounts({ endDate: MIN_DATE }, { headers: tenantHeaders({ workspaceId: tenant.workspaceId, userId: tenant.userId, role: tenant.role }) });
    const accounts: Account[] = r.chartOfAccounts.map((c) => ({ id: c.id, name: c.name, coaId: c.coaId, type: c.type, level: c.level, group: c.group, tag: c.tag, parentId: c.parentId || null, bankAccountId: c.bankAccountId || null }));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tenant.workspaceId, { at: Date.now(), accounts, ids: new Set(accounts.map((a) => a.id)) });
    return accounts;
  }
}
