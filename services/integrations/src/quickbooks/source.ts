// Where the sync reads the workspace's entities: the owning services' own list RPCs (the ledger's chart and
// transactions, parties' vendors and customers), called as the workspace. Tests of the push engine may hand in
// another QuickBooksSource; the API tests run this one against the real services.
import type { Client } from '@connectrpc/connect';
import { createServiceClient, tenantHeaders } from '@ledgerline/platform';
import { LedgerService, type Category, type Transaction } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { PartiesService } from '@ledgerline/proto/parties/v1/parties_pb';
import type { IntegrationsConfig } from '../config.js';
import type { Tenant } from '../usecases/context.js';
import type { AccountRecord, NameRecord, QbEntityType, SourceRecord, TransactionRecord } from './entities.js';
import type { QuickBooksImporter } from './reverse.js';

export interface QuickBooksSource {
  /** Every entity of the type in the workspace (ids: only those), as the owning service answers them now. */
  list(tenant: Tenant, type: QbEntityType): Promise<SourceRecord[]>;
}

/** At most this many transactions are read for one sync (40 pages of 100 a second on the ledger's list). */
const MAX_TRANSACTIONS = 200_000;
const UNCATEGORISED = new Set(['uncategorised_income', 'uncategorised_expense']);

const accountRecord = (c: Category): AccountRecord => ({
  type: 'account',
  id: c.id,
  name: c.name,
  coaId: c.coaId,
  classGroup: c.type,
  level: c.level,
  bankAccountId: c.bankAccountId,
});

/** Why a transaction has no QuickBooks counterpart of its own (empty: it is pushed). */
export function transactionIgnoreReason(t: Transaction, categories: Map<string, Category>): string {
  if (t.pending) return 'Pending at the bank';
  if (t.isOpeningBalance) return 'An opening balance';
  if (t.isSplittedParent || t.isSplittedChildren) return 'A split transaction';
  if (t.isAccruedParent || t.isAccruedChildren) return 'An accrued transaction';
  if (t.entityId) return `Linked to a ${t.entityType || 'document'}`;
  const category = t.category ? categories.get(t.category.id) : undefined;
  if (!category || UNCATEGORISED.has(category.systemKey)) return 'Not categorised';
  if (category.type === 'Transfer' || t.transferPair) return 'A transfer';
  return '';
}

export class ServiceSource implements QuickBooksSource, QuickBooksImporter {
  private readonly ledger: Client<typeof LedgerService>;
  private readonly parties: Client<typeof PartiesService>;

  constructor(config: IntegrationsConfig) {
    const trust = (audience: string) => ({ key: config.SERVICE_TOKEN_KEY, issuer: 'integrations', audience });
    this.ledger = createServiceClient(LedgerService, { baseUrl: config.LEDGER_URL, timeoutMs: config.QUICKBOOKS_TIMEOUT_MS, trust: trust('ledger') });
    this.parties = createServiceClient(PartiesService, { baseUrl: config.PARTIES_URL, timeoutMs: config.QUICKBOOKS_TIMEOUT_MS, trust: trust('parties') });
  }

  private headers(tenant: Tenant) {
    return { headers: tenantHeaders({ workspaceId: tenant.workspaceId, userId: tenant.userId, role: tenant.role ?? 'Owner' }) };
  }

  async list(tenant: Tenant, type: QbEntityType): Promise<SourceRecord[]> {
    switch (type) {
      case 'account':
        return (await this.ledger.listCategories({}, this.headers(tenant))).categories.map(accountRecord);
      case 'vendor': {
        const r = await this.parties.listVendors({ all: true }, this.headers(tenant));
        return r.data.map((v): NameRecord => ({
          type: 'vendor',
          id: v.id,
          name: v.name,
          email: v.email,
          description: v.description,
          companyName: '',
          is1099: v.is1099Eligible,
          active: v.status !== 'inactive',
        }));
      }
      case 'customer': {
        const r = await this.parties.listCustomers({ all: true }, this.headers(tenant));
        return r.data.map((c): NameRecord => ({
          type: 'customer',
          id: c.id,
          name: c.name,
          email: c.email,
          description: c.description,
          companyName: c.companyName,
          is1099: false,
          active: c.status !== 'inactive',
        }));
      }
      case 'transaction':
        return this.transactions(tenant);
    }
  }

  async createAccount(tenant: Tenant, input: { name: string; coaId: number; parentId: string }): Promise<string> {
    const r = await this.ledger.createCategory({ name: input.name.slice(0, 200), coaId: input.coaId, parentId: input.parentId }, this.headers(tenant));
    return r.category!.id;
  }

  async createName(tenant: Tenant, type: 'vendor' | 'customer', input: { name: string; email: string; companyName: string }): Promise<string> {
    const name = input.name.slice(0, 200);
    const create = (email: string) =>
      type === 'vendor'
        ? this.parties.createVendor({ fields: { name, ...(email ? { email } : {}) } }, this.headers(tenant)).then((r) => r.vendor!.id)
        : this.parties
            .createCustomer(
              { fields: { name, ...(email ? { email } : {}), ...(input.companyName ? { companyName: input.companyName.slice(0, 200) } : {}) } },
              this.headers(tenant),
            )
            .then((r) => r.customer!.id);
    // An address parties refuses is left out rather than the name.
    return create(input.email).catch((err: unknown) => (input.email ? create('') : Promise.reject(err)));
  }

  private async transactions(tenant: Tenant): Promise<TransactionRecord[]> {
    const categories = new Map((await this.ledger.listCategories({}, this.headers(tenant))).categories.map((c) => [c.id, c]));
    const out: TransactionRecord[] = [];
    for (let page = 1; ; page++) {
      const r = await this.ledger.listTransactions({ page, take: 100, order: 'ASC' }, this.headers(tenant));
      for (const t of r.data) {
        out.push({
          type: 'transaction',
          id: t.id,
          date: t.date.slice(0, 10),
          amountCents: Number(t.amountCents),
          memo: t.memo || t.biller?.name || '',
          currency: t.isoCurrencyCode,
          categoryId: t.category?.id ?? '',
          bankLedgerAccountId: t.ledgerAccountId,
          card: categories.get(t.ledgerAccountId)?.type === 'Liability',
          vendorId: t.vendorId,
          ignoreReason: transactionIgnoreReason(t, categories),
        });
      }
      if (!r.meta?.hasNextPage || out.length >= MAX_TRANSACTIONS) return out;
    }
  }
}
