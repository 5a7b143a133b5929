import { AppError, ErrorKind, isUuid, newId, withTenant, type Knex, type Logger, type TenantContext, assertCanEdit } from '@ledgerline/platform';
import type { LedgerLink, VendorActivity } from '../clients/ledger.js';
import { cleanListQuery, cleanParty, mergeProblems, MSG, pageMeta, type CustomerInput, type FieldProblem, type VendorInput } from '../domain/parties.js';
import { partyFigures, utcToday, type PartyFigures } from '../domain/document-figures.js';
import { customerKeptMessage, DELETED, vendorKeptMessage } from '../domain/party-delete.js';
import { vendorNameKey } from '../domain/vendor-name.js';
import { customerChanged, vendorChanged } from '../events/party-changed.js';
import { creditTotals, moveVendorCredits, type PartyCreditTotals } from '../store/credits.js';
import {
  customerById,
  customerNameTaken,
  insertCustomer,
  listCustomers,
  markCustomerDeleted,
  setCustomerStatus,
  updateCustomer,
  type CustomerRow,
} from '../store/customers.js';
import {
  insertMerchant,
  insertVendor,
  listVendors,
  markVendorsDeleted,
  merchantKnown,
  merchantNames,
  moveMerchants,
  setVendorStatus,
  updateVendor,
  vendorById,
  vendorForMerchant,
  vendorNameTaken,
  vendorsByIds,
  type VendorRow,
} from '../store/vendors.js';
import { movePartyDocuments, partyDocuments, type PartyDocumentKind } from '../store/party-documents.js';
import { moveRules, vendorsWithRules } from '../store/vendor-rules.js';

export interface PartiesDeps {
  db: Knex;
  logger: Logger;
  ledger: LedgerLink;
}

export type Tenant = TenantContext & { workspaceId: string };

/** A vendor as the API shows it: its row, the merchants it stands for and its totals from the books. */
export interface VendorView {
  row: VendorRow;
  merchantNames: string[];
  activity: VendorActivity;
  /** Its live vendor credits: count, total and what remains unapplied (services/parties/src/store/credits.ts). */
  credits?: PartyCreditTotals;
  /** The vendor has at least one vendor rule. */
  hasRule?: boolean;
  /** Its bills' figures as of today (read model of the documents service's bills; none: no bills). */
  bills?: PartyFigures;
}

/** A customer with its live credit memos' count and total (this service's own) and its invoices' figures as of today. */
export type CustomerView = CustomerRow & { memoTotals?: PartyCreditTotals; invoices?: PartyFigures };

/** The parties' bill or invoice figures as of today (UTC), from the read model; every party's when `ids` is undefined. */
async function figuresOf(trx: Knex.Transaction, kind: PartyDocumentKind, ids?: readonly string[]): Promise<Map<string, PartyFigures>> {
  return partyFigures(await partyDocuments(trx, kind, ids), utcToday());
}

export interface ListAnswer<T> {
  data: T[];
  meta: ReturnType<typeof pageMeta>;
}

const NO_ACTIVITY: VendorActivity = { transactionCount: 0, spendingCents: 0, inflowCents: 0 };

function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length > 0) throw AppError.invalid(problems);
}
/** A 404 naming the field that carried the id (in a path: `id`). */
function notFound(what: 'Vendor' | 'Customer', field: string): AppError {
  const message = `${what} not found`;
  return new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
}
const idProblems = (field: string, id: string): FieldProblem[] => (isUuid(id) ? [] : [{ field, message: MSG.uuid(field) }]);

export function createUseCases({ db, ledger, logger }: PartiesDeps) {
  /** A vendor with its merchants and totals, inside a change (whose answer must show what it changed). */
  async function viewOf(tenant: Tenant, trx: Knex.Transaction, row: VendorRow): Promise<VendorView> {
    // The ledger's call goes out while the transaction's queries run one after another (one connection runs one query at a time).
    const activityCall = ledger.activity(tenant, [row.id]);
    activityCall.catch(() => undefined); // its failure is thrown by the await below, not reported as unhandled meanwhile
    const names = await merchantNames(trx, [row.id]);
    const credits = await creditTotals(trx, 'vendor_credit', [row.id]);
    const ruled = await vendorsWithRules(trx, [row.id]);
    const bills = await figuresOf(trx, 'bill', [row.id]);
    const activity = await activityCall;
    return {
      row,
      merchantNames: names.get(row.id) ?? [],
      activity: activity.get(row.id) ?? NO_ACTIVITY,
      credits: credits.get(row.id),
      hasRule: ruled.has(row.id),
      bills: bills.get(row.id),
    };
  }

  return {
    async listVendors(
      tenant: Tenant,
      query: { page: number; take: number; search: string; status: string; filter: string; all: boolean },
    ): Promise<ListAnswer<VendorView>> {
      const { value: q, problems } = cleanListQuery(query);
      throwIfAny(problems);
      // The page is read in one transaction; the totals are asked of the ledger after it (no connection held meanwhile).
      const { rows, count, names, credits, ruled, bills } = await withTenant(db, tenant, async (trx) => {
        const page = await listVendors(trx, q);
        const ids = page.rows.map((r) => r.id);
        return {
          ...page,
          names: await merchantNames(trx, ids),
          credits: await creditTotals(trx, 'vendor_credit', ids),
          ruled: await vendorsWithRules(trx, ids),
          bills: await figuresOf(trx, 'bill', q.all ? undefined : ids),
        };
      });
      const activity = await ledger.activity(tenant, q.all ? undefined : rows.map((r) => r.id));
      const data = rows.map((row) => ({
        row,
        merchantNames: names.get(row.id) ?? [],
        activity: activity.get(row.id) ?? NO_ACTIVITY,
        credits: credits.get(row.id),
        hasRule: ruled.has(row.id),
        bills: bills.get(row.id),
      }));
      return { data, meta: q.all ? pageMeta(1, Math.max(count, 1), count) : pageMeta(q.page, q.take, count) };
    },

    async getVendor(tenant: Tenant, id: string): Promise<VendorView> {
      throwIfAny(idProblems('id', id));
      const { row, names, credits, ruled, bills } = await withTenant(db, tenant, async (trx) => {
        const found = await vendorById(trx, id);
        if (!found) throw notFound('Vendor', 'id');
        return {
          row: found,
          names: await merchantNames(trx, [id]),
          credits: await creditTotals(trx, 'vendor_credit', [id]),
          ruled: await vendorsWithRules(trx, [id]),
          bills: await figuresOf(trx, 'bill', [id]),
        };
      });
      const activity = await ledger.activity(tenant, [id]);
      return {
        row,
        merchantNames: names.get(id) ?? [],
        activity: activity.get(id) ?? NO_ACTIVITY,
        credits: credits.get(id),
        hasRule: ruled.has(id),
        bills: bills.get(id),
      };
    },

    /** POST /vendors: a new vendor, registered with the ledger (transactions may name it) in the same step. */
    async createVendor(tenant: Tenant, input: VendorInput): Promise<VendorView> {
      assertCanEdit(tenant);
      const { value, problems } = cleanParty(input, true);
      throwIfAny(problems);
      const name = value.name as string;
      return withTenant(db, tenant, async (trx) => {
        const row = await insertVendor(trx, { ...value, id: newId(), workspaceId: tenant.workspaceId, name, nameKey: vendorNameKey(name), isAdded: true });
        if (!row) throw AppError.invalid([{ field: 'name', message: MSG.vendorNameTaken }]);
        await ledger.register(tenant, [{ vendorId: row.id, billerIds: [] }]);
        await vendorChanged(trx, tenant.workspaceId, row, 'created');
        return viewOf(tenant, trx, row);
      });
    },

    async updateVendor(tenant: Tenant, id: string, input: VendorInput): Promise<VendorView> {
      assertCanEdit(tenant);
      throwIfAny(idProblems('id', id));
      const { value, problems } = cleanParty(input, false);
      return withTenant(db, tenant, async (trx) => {
        // Another workspace's id is a 404 whatever the body holds; then the fields' refusals (nothing changed).
        if (!(await vendorById(trx, id, true))) throw notFound('Vendor', 'id');
        throwIfAny(problems);
        const nameKey = value.name !== undefined ? vendorNameKey(value.name) : undefined;
        if (value.name !== undefined && (await vendorNameTaken(trx, value.name, id))) throw AppError.invalid([{ field: 'name', message: MSG.vendorNameTaken }]);
        const row = await updateVendor(trx, id, { ...value, nameKey });
        await vendorChanged(trx, tenant.workspaceId, row, 'updated');
        return viewOf(tenant, trx, row);
      });
    },

    /**
     * DELETE /vendors/{id}, as QuickBooks Online does it: a vendor with transactions, bills or vendor credits cannot
     * be deleted (they would lose their vendor); it is made inactive instead and the answer names what holds it
     * (domain/party-delete.ts). One without any is deleted and the ledger forgets its id.
     */
    async deleteVendor(tenant: Tenant, id: string): Promise<{ deleted: boolean; vendor: VendorView; message: string }> {
      assertCanEdit(tenant);
      throwIfAny(idProblems('id', id));
      return withTenant(db, tenant, async (trx) => {
        const row = await vendorById(trx, id, true);
        if (!row) throw notFound('Vendor', 'id');
        const view = await viewOf(tenant, trx, row);
        const held = vendorKeptMessage(
          { transactions: view.activity.transactionCount, bills: view.bills?.count ?? 0, vendorCredits: view.credits?.count ?? 0 },
          row.status === 'inactive',
        );
        if (held) {
          const inactive = row.status === 'inactive' ? row : await setVendorStatus(trx, id, 'inactive');
          if (inactive !== row) await vendorChanged(trx, tenant.workspaceId, inactive, 'updated');
          return { deleted: false, vendor: { ...view, row: inactive }, message: held };
        }
        await markVendorsDeleted(trx, [id], null);
        await moveRules(trx, [id], null);
        await ledger.forget(tenant, id);
        await vendorChanged(trx, tenant.workspaceId, row, 'deleted');
        return { deleted: true, vendor: view, message: DELETED.vendor };
      });
    },

    /**
     * POST /vendors/merge: the merging vendors go into the parent. The ledger moves their transactions (and
     * merchants) to the parent; here their merchants move and they are deleted; one vendor.changed
     * (merged, into the parent) per merged vendor tells whoever keeps something of them — bills and vendor
     * credits (documents service), rules (this service, in this transaction once they exist) — to move it.
     */
    async mergeVendors(tenant: Tenant, parentId: string, mergingIds: string[]): Promise<{ vendor: VendorView; movedTransactions: number }> {
      assertCanEdit(tenant);
      const merging = [...new Set(mergingIds)];
      throwIfAny(mergeProblems(parentId, merging));
      return withTenant(db, tenant, async (trx) => {
        const found = await vendorsByIds(trx, [parentId, ...merging], true);
        const parent = found.find((v) => v.id === parentId);
        if (!parent) throw notFound('Vendor', 'parentVendorId');
        const others = found.filter((v) => v.id !== parentId);
        if (others.length !== merging.length) throw notFound('Vendor', 'mergingVendorsId');
        const movedTransactions = await ledger.merge(tenant, parentId, merging);
        await moveMerchants(trx, merging, parentId);
        await moveVendorCredits(trx, merging, parentId);
        // Their bills' figures follow at once (the documents service moves the bills on vendor.changed).
        await movePartyDocuments(trx, merging, parentId);
        // Their vendor rules move to the parent here and in the ledger's copy (MergeVendors), in this step.
        await moveRules(trx, merging, parentId);
        await markVendorsDeleted(trx, merging, parentId);
        for (const v of others) await vendorChanged(trx, tenant.workspaceId, v, 'merged', parentId);
        return { vendor: await viewOf(tenant, trx, parent), movedTransactions };
      });
    },

    /**
     * A bank merchant becomes a vendor (issue #17): the ledger's biller is matched to the live vendor of the
     * same name, else the oldest whose name has the same key (vendorNameKey), else a new vendor is made of it (not "added": the Added filter
     * shows it as Not added until a user edits it), and the ledger records the biller's vendor. Idempotent.
     */
    async adoptMerchant(trx: Knex.Transaction, workspaceId: string, billerId: string, merchantName: string): Promise<void> {
      if (await merchantKnown(trx, billerId)) return;
      const name = merchantName.trim().slice(0, 200);
      const key = vendorNameKey(name);
      if (key === '') return;
      const tenant = { workspaceId };
      let vendor = await vendorForMerchant(trx, name, key);
      let created = false;
      if (!vendor) {
        const inserted = await insertVendor(trx, { id: newId(), workspaceId, name, nameKey: key, isAdded: false });
        created = inserted !== undefined;
        // A user made a vendor of that name meanwhile: use it.
        vendor = inserted ?? (await vendorForMerchant(trx, name, key));
      }
      if (!vendor) throw new Error(`no vendor for merchant ${billerId}`);
      await insertMerchant(trx, { billerId, workspaceId, vendorId: vendor.id, merchantName: name });
      await ledger.register(tenant, [{ vendorId: vendor.id, billerIds: [billerId] }]);
      if (created) await vendorChanged(trx, workspaceId, vendor, 'created');
      logger.debug({ workspaceId, billerId, vendorId: vendor.id }, 'merchant adopted as vendor');
    },

    async listCustomers(
      tenant: Tenant,
      query: { page: number; take: number; search: string; status: string; all: boolean },
    ): Promise<ListAnswer<CustomerView>> {
      const { value: q, problems } = cleanListQuery(query);
      throwIfAny(problems);
      return withTenant(db, tenant, async (trx) => {
        const { rows, count } = await listCustomers(trx, q);
        const ids = rows.map((r) => r.id);
        const [memos, invoices] = [await creditTotals(trx, 'credit_memo', ids), await figuresOf(trx, 'invoice', q.all ? undefined : ids)];
        return {
          data: rows.map((r) => ({ ...r, memoTotals: memos.get(r.id), invoices: invoices.get(r.id) })),
          meta: q.all ? pageMeta(1, Math.max(count, 1), count) : pageMeta(q.page, q.take, count),
        };
      });
    },

    async getCustomer(tenant: Tenant, id: string): Promise<CustomerView> {
      throwIfAny(idProblems('id', id));
      return withTenant(db, tenant, async (trx) => {
        const row = await customerById(trx, id);
        if (!row) throw notFound('Customer', 'id');
        return { ...row, memoTotals: (await creditTotals(trx, 'credit_memo', [id])).get(id), invoices: (await figuresOf(trx, 'invoice', [id])).get(id) };
      });
    },

    async createCustomer(tenant: Tenant, input: CustomerInput): Promise<CustomerRow> {
      assertCanEdit(tenant);
      const { value, problems } = cleanParty(input, true);
      throwIfAny(problems);
      const name = value.name as string;
      return withTenant(db, tenant, async (trx) => {
        if (await customerNameTaken(trx, name)) throw AppError.invalid([{ field: 'name', message: MSG.customerNameTaken }]);
        const row = await insertCustomer(trx, { ...value, id: newId(), workspaceId: tenant.workspaceId, name });
        await customerChanged(trx, tenant.workspaceId, row, 'created');
        return row;
      });
    },

    async updateCustomer(tenant: Tenant, id: string, input: CustomerInput): Promise<CustomerView> {
      assertCanEdit(tenant);
      throwIfAny(idProblems('id', id));
      const { value, problems } = cleanParty(input, false);
      return withTenant(db, tenant, async (trx) => {
        if (!(await customerById(trx, id, true))) throw notFound('Customer', 'id');
        throwIfAny(problems);
        if (value.name !== undefined && (await customerNameTaken(trx, value.name, id)))
          throw AppError.invalid([{ field: 'name', message: MSG.customerNameTaken }]);
        const row = await updateCustomer(trx, id, value);
        await customerChanged(trx, tenant.workspaceId, row, 'updated');
        return { ...row, memoTotals: (await creditTotals(trx, 'credit_memo', [id])).get(id), invoices: (await figuresOf(trx, 'invoice', [id])).get(id) };
      });
    },

    /**
     * DELETE /customers/{id}: a customer with invoices or credit memos is made inactive instead (as a vendor with
     * transactions, bills or credits), and the answer names what holds it; one without is deleted.
     */
    async deleteCustomer(tenant: Tenant, id: string): Promise<{ deleted: boolean; message: string }> {
      assertCanEdit(tenant);
      throwIfAny(idProblems('id', id));
      return withTenant(db, tenant, async (trx) => {
        const row = await customerById(trx, id, true);
        if (!row) throw notFound('Customer', 'id');
        const memos = (await creditTotals(trx, 'credit_memo', [id])).get(id)?.count ?? 0;
        const invoices = (await figuresOf(trx, 'invoice', [id])).get(id)?.count ?? 0;
        const held = customerKeptMessage({ invoices, creditMemos: memos }, row.status === 'inactive');
        if (held) {
          if (row.status !== 'inactive') await customerChanged(trx, tenant.workspaceId, await setCustomerStatus(trx, id, 'inactive'), 'updated');
          return { deleted: false, message: held };
        }
        await markCustomerDeleted(trx, id);
        await customerChanged(trx, tenant.workspaceId, row, 'deleted');
        return { deleted: true, message: DELETED.customer };
      });
    },
  };
}

export type PartiesUseCases = ReturnType<typeof createUseCases>;
