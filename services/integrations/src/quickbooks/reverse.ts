// The reverse sync ('mapper and reverse sync'): QuickBooks' chart of accounts, vendors and customers come into the
// owning services through their own RPCs. An entity we have already (same name, case-insensitive) is mapped to
// QuickBooks' and not created; one we lack is created (accounts under the first heading of their class, with the
// next free coaId). Every mapped entity is recorded synced with its QBO Id, so the push never sends it back. A run
// killed midway is run again: matching by name finds what it created, nothing is created twice.
import { withTenant } from '@ledgerline/platform';
import type { IntegrationsDeps, Tenant } from '../usecases/context.js';
import { accountName, fingerprint, plan, type AccountRecord, type QbEntityType, type SourceRecord } from './entities.js';
import type { QuickBooksIntegration } from './integration.js';
import type { QuickBooksSource } from './source.js';
import { qbEntities, qbJobs, type QbEntityRow } from './store.js';
import { quickBooksSynced } from './synced-event.js';

/** Creates entities in their owning services (the ledger's chart, parties' vendors and customers). */
export interface QuickBooksImporter {
  createAccount(tenant: Tenant, input: { name: string; coaId: number; parentId: string }): Promise<string>;
  createName(tenant: Tenant, type: 'vendor' | 'customer', input: { name: string; email: string; companyName: string }): Promise<string>;
}

interface QboAccount {
  Id: string;
  SyncToken: string;
  Name: string;
  AccountType: string;
  Classification?: string;
}

interface QboName {
  Id: string;
  SyncToken: string;
  DisplayName: string;
  CompanyName?: string;
  PrimaryEmailAddr?: { Address?: string };
}

const CLASS: Record<string, string> = { Asset: 'Assets', Liability: 'Liability', Equity: 'Equity', Revenue: 'Income', Expense: 'Expenses' };

export class QuickBooksReverseSync {
  constructor(
    private readonly deps: IntegrationsDeps,
    private readonly integration: QuickBooksIntegration,
    private readonly source: QuickBooksSource,
    private readonly importer: QuickBooksImporter,
  ) {}

  private async all<T>(tenant: Tenant, method: string, entity: string): Promise<T[]> {
    const answer = await this.integration.call<{ QueryResponse?: Record<string, unknown> }>(tenant, method, { fetchAll: true });
    const list = answer.QueryResponse?.[entity];
    return Array.isArray(list) ? (list as T[]) : [];
  }

  async run(tenant: Tenant, connectionId: string, jobId: string): Promise<void> {
    const accounts = await this.all<QboAccount>(tenant, 'findAccounts', 'Account');
    const vendors = await this.all<QboName>(tenant, 'findVendors', 'Vendor');
    const customers = await this.all<QboName>(tenant, 'findCustomers', 'Customer');
    await withTenant(this.deps.db, tenant, (trx) => qbJobs.update(trx, jobId, { total: accounts.length + vendors.length + customers.length }));
    const mapped = new Map<string, { type: QbEntityType; qbo: { Id: string; SyncToken: string; type: string; key: string } }>();

    // The chart: bank and card accounts belong to bank connections, not to the chart import.
    const ours = (await this.source.list(tenant, 'account')) as AccountRecord[];
    const byName = new Map(ours.filter((a) => a.level >= 3).map((a) => [accountName(a.name).toLowerCase(), a]));
    const coaIds = new Set(ours.map((a) => a.coaId));
    for (const a of accounts) {
      if (a.AccountType === 'Bank' || a.AccountType === 'Credit Card') continue;
      let id = byName.get(a.Name.toLowerCase())?.id;
      if (!id) {
        const classGroup = CLASS[a.Classification ?? ''];
        const parent = ours.find((c) => c.level === 2 && c.classGroup === classGroup) ?? ours.find((c) => c.level === 1 && c.classGroup === classGroup);
        if (!parent) continue;
        let coaId = Math.max(parent.coaId, ...ours.filter((c) => c.classGroup === classGroup).map((c) => c.coaId)) + 1;
        while (coaIds.has(coaId)) coaId++;
        coaIds.add(coaId);
        id = await this.importer.createAccount(tenant, { name: a.Name, coaId, parentId: parent.id });
      }
      mapped.set(`account:${id}`, { type: 'account', qbo: { Id: a.Id, SyncToken: a.SyncToken, type: 'Account', key: a.Name } });
    }
    for (const [type, list] of [
      ['vendor', vendors],
      ['customer', customers],
    ] as const) {
      const names = new Map((await this.source.list(tenant, type)).map((r) => [(r as { name: string }).name.trim().toLowerCase(), r.id]));
      for (const n of list) {
        const id =
          names.get(n.DisplayName.trim().toLowerCase()) ??
          (await this.importer.createName(tenant, type, { name: n.DisplayName, email: n.PrimaryEmailAddr?.Address ?? '', companyName: n.CompanyName ?? '' }));
        names.set(n.DisplayName.trim().toLowerCase(), id);
        mapped.set(`${type}:${id}`, { type, qbo: { Id: n.Id, SyncToken: n.SyncToken, type: type === 'vendor' ? 'Vendor' : 'Customer', key: n.DisplayName } });
      }
    }
    await this.record(tenant, connectionId, jobId, mapped);
  }

  /** The mapped entities as synced, with the fingerprint of what they are now (so the push leaves them be). */
  private async record(
    tenant: Tenant,
    connectionId: string,
    jobId: string,
    mapped: Map<string, { type: QbEntityType; qbo: { Id: string; SyncToken: string; type: string; key: string } }>,
  ) {
    const rows: Array<Omit<QbEntityRow, 'updated_at'>> = [];
    for (const type of ['account', 'vendor', 'customer'] as const) {
      for (const record of (await this.source.list(tenant, type)) as SourceRecord[]) {
        const m = mapped.get(`${type}:${record.id}`);
        if (!m) continue;
        rows.push({
          connection_id: connectionId,
          workspace_id: tenant.workspaceId,
          entity_type: type,
          entity_id: record.id,
          status: 'synced',
          qbo_type: m.qbo.type,
          qbo_id: m.qbo.Id,
          sync_token: m.qbo.SyncToken,
          lookup_key: m.qbo.key,
          fingerprint: fingerprint(plan(record, () => undefined)),
          error: null,
          job_id: jobId,
        });
      }
    }
    await withTenant(this.deps.db, tenant, async (trx) => {
      await qbEntities.upsert(trx, rows);
      await trx('quickbooks_sync_jobs')
        .where({ id: jobId })
        .update({ done: trx.raw('total') });
      for (const type of ['account', 'vendor', 'customer'] as const) {
        const ids = rows.filter((r) => r.entity_type === type).map((r) => r.entity_id);
        for (let i = 0; i < ids.length; i += 5_000)
          await quickBooksSynced(trx, tenant.workspaceId, { entityType: type, syncedIds: ids.slice(i, i + 5_000), unsyncedIds: [], jobId });
      }
    });
  }
}
