import { Code, ConnectError } from '@connectrpc/connect';
import {
  AppError,
  ErrorKind,
  isBusinessDate,
  isReversedRange,
  isUuid,
  newId,
  withSystem,
  withTenant,
  type Knex,
  type Logger,
  type TenantContext,
  assertCanEdit,
} from '@ledgerline/platform';
import type { FixedAssetLedger } from '../clients/ledger-fixed-assets.js';
import { cleanAsset, depreciationSchedule, type AssetBody } from '../domain/depreciation.js';
import type { FieldProblem } from '../domain/documents.js';
import {
  assetById,
  assetOfTransaction,
  dueMonths,
  insertAsset,
  listAssets,
  lockAsset,
  lockMonth,
  markDeleted,
  monthsBetween,
  removeUnbooked,
  scheduleOf,
  setPosted,
  setPurchaseBooked,
  setReleased,
  setReversed,
  setStopped,
  shareAsset,
  unfinishedAssets,
  type AssetListRow,
  type AssetRow,
  type MonthRow,
} from '../store/fixed-assets.js';

export type Tenant = TenantContext & { workspaceId: string };

export const FIXED_ASSET_MSG = {
  notFound: 'Fixed asset not found',
  idRequired: (field: string) => `${field} is required`,
  uuid: (field: string) => `${field} must be a UUID`,
  alreadyAsset: 'This transaction is already a fixed asset',
  costNotAmount: (amount: string) => `cost must equal the purchase transaction's amount (${amount})`,
  created: 'Fixed asset created',
  stopped: 'Fixed asset stopped',
  deleted: 'Fixed asset deleted',
  range: 'startDate must be a date (YYYY-MM-DD)',
  rangeEnd: 'endDate must be a date (YYYY-MM-DD)',
} as const;

/** Each asset's status: Pending until its purchase is booked, then Active, Stopped or Fully Depreciated (every month posted). */
export type AssetStatus = 'Pending' | 'Active' | 'Stopped' | 'Fully Depreciated';

export interface AssetView {
  row: AssetRow;
  status: AssetStatus;
  accumulatedCents: number;
  /** With GET one: the months. */
  schedule?: MonthRow[];
}

export interface FixedAssetDeps {
  db: Knex;
  logger: Logger;
  ledger: FixedAssetLedger;
  /** The clock's UTC date, YYYY-MM-DD. */
  today: () => string;
  /** Asks the scheduler for a sweep soon (a new asset's past months are posted at once). */
  wake: () => void;
}

const SWEEP_BATCH = 200;
/** A purchase not booked this long after its create is taken over by the sweep (the create's own call may still be under way). */
const BOOKING_GRACE_SECONDS = 30;

const notFound = () => new AppError(ErrorKind.NotFound, FIXED_ASSET_MSG.notFound, { fields: [{ field: 'id', message: FIXED_ASSET_MSG.notFound }] });
const statusOf = (r: AssetListRow): AssetStatus =>
  !r.purchase_booked ? 'Pending' : r.stopped_on ? 'Stopped' : r.months > 0 && r.posted_months === r.months ? 'Fully Depreciated' : 'Active';
const viewOf = (r: AssetListRow, schedule?: MonthRow[]): AssetView => ({ row: r, status: statusOf(r), accumulatedCents: r.posted_cents, schedule });
const describe = (a: Pick<AssetRow, 'description' | 'merchant_name'>, date: string) =>
  `Depreciation: ${a.description || a.merchant_name || 'fixed asset'} (${date.slice(0, 7)})`;
/** Refusals of the ledger that no retry changes (the transaction is not a purchase, not editable, gone, ...). */
const isRefusal = (err: unknown) =>
  [Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition, Code.AlreadyExists, Code.PermissionDenied].includes(ConnectError.from(err).code);
const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * Fixed assets (spec documents-parties-integrations "Fixed asset"; issue #19 item 6; decision
 * docs/decisions/0025-fixed-assets-and-depreciation.md). Create: the body's rules here, the transaction's and the asset
 * account's at the ledger (a dry run), the asset and its whole schedule committed, then the purchase booked (a crash
 * in between is finished by the sweep). Each month is posted by `runDue` once: the row's id is the ledger's source id.
 */
export function createFixedAssetUseCases({ db, logger, ledger, today, wake }: FixedAssetDeps) {
  /** A month in the books, in one transaction: the asset read under a share lock (a delete waits), the month locked (SKIP LOCKED). */
  async function postMonth(m: Pick<MonthRow, 'id' | 'workspace_id' | 'asset_id'>): Promise<boolean> {
    return withTenant(db, { workspaceId: m.workspace_id, role: 'Admin' }, async (trx) => {
      const asset = await shareAsset(trx, m.asset_id);
      if (!asset || asset.deleted_at || !asset.purchase_booked) return false;
      const month = await lockMonth(trx, m.id);
      if (!month || month.posted_at || (asset.stopped_on && month.depreciation_date > asset.stopped_on)) return false;
      const posted = await ledger.postDepreciation(
        { workspaceId: m.workspace_id, role: 'Admin' },
        {
          monthId: month.id,
          version: 1,
          date: month.depreciation_date,
          amountCents: month.amount_cents,
          description: describe(asset, month.depreciation_date),
        },
      );
      await setPosted(trx, month.id, posted.entryId);
      return true;
    });
  }

  /**
   * What a delete leaves to do, again and again until done: every month that may be in the books (posted, or due by
   * today: a posting whose answer was lost) voided at the ledger (version 2; never posted, it is a tombstone refusing a
   * late version 1), then the purchase booked back to its category. Each step is idempotent.
   */
  async function finishDelete(tenant: Tenant, id: string): Promise<number> {
    const { asset, months } = await withTenant(db, tenant, async (trx) => ({ asset: await lockAsset(trx, id), months: await scheduleOf(trx, id) }));
    if (!asset || !asset.deleted_at || asset.released) return 0;
    let seq = 0;
    const day = today();
    for (const m of months) {
      if (m.reversed_at || (!m.posted_at && m.depreciation_date > day)) continue;
      const r = await ledger.postDepreciation(tenant, {
        monthId: m.id,
        version: 2,
        date: '',
        amountCents: 0,
        description: describe(asset, m.depreciation_date),
      });
      seq = Math.max(seq, r.seq);
      await withTenant(db, tenant, (trx) => setReversed(trx, m.id));
    }
    seq = Math.max(
      seq,
      await ledger.releasePurchase(tenant, { assetId: id, transactionId: asset.transaction_id, categoryId: asset.previous_category_id ?? '' }),
    );
    await withTenant(db, tenant, (trx) => setReleased(trx, id));
    return seq;
  }

  /** The purchase of a committed asset booked; a refusal (the transaction changed meanwhile) removes the asset, nothing of it being in the books. */
  async function finishCreate(tenant: Tenant, a: Pick<AssetRow, 'id' | 'transaction_id' | 'asset_account_id'>): Promise<number> {
    try {
      const r = await ledger.bookPurchase(tenant, { assetId: a.id, transactionId: a.transaction_id, assetAccountId: a.asset_account_id, dryRun: false });
      await withTenant(db, tenant, (trx) => setPurchaseBooked(trx, a.id));
      return r.seq;
    } catch (err) {
      if (isRefusal(err)) await withTenant(db, tenant, (trx) => removeUnbooked(trx, a.id));
      throw err;
    }
  }

  return {
    async list(tenant: Tenant): Promise<AssetView[]> {
      return withTenant(db, tenant, async (trx) => (await listAssets(trx)).map((r) => viewOf(r)));
    },

    async get(tenant: Tenant, id: string): Promise<AssetView> {
      if (!isUuid(id)) throw notFound();
      return withTenant(db, tenant, async (trx) => {
        const row = await assetById(trx, id);
        if (!row) throw notFound();
        return viewOf(row, await scheduleOf(trx, id));
      });
    },

    async create(tenant: Tenant, body: AssetBody): Promise<{ view: AssetView; seq: number }> {
      assertCanEdit(tenant, { callsWithoutRole: 'allow' });
      const problems: FieldProblem[] = [];
      for (const field of ['transactionId', 'assetTypeId'] as const) {
        const v = body[field];
        if (v === undefined || v === null || v === '') problems.push({ field, message: FIXED_ASSET_MSG.idRequired(field) });
        else if (typeof v !== 'string' || !isUuid(v)) problems.push({ field, message: FIXED_ASSET_MSG.uuid(field) });
      }
      const { asset, problems: more } = cleanAsset(body);
      problems.push(...more);
      if (problems.length > 0 || !asset) throw AppError.invalid(problems);
      const transactionId = body.transactionId as string;
      const assetAccountId = body.assetTypeId as string;
      const id = newId();
      const checked = await ledger.bookPurchase(tenant, { assetId: id, transactionId, assetAccountId, dryRun: true });
      if (checked.amountCents !== asset.costCents)
        throw AppError.invalid([{ field: 'cost', message: FIXED_ASSET_MSG.costNotAmount(dollars(checked.amountCents)) }]);
      const months = depreciationSchedule(asset);
      const row = {
        id,
        workspace_id: tenant.workspaceId,
        transaction_id: transactionId,
        purchase_date: asset.purchaseDate,
        depreciation_start_date: asset.depreciationStartDate,
        description: asset.description,
        asset_account_id: assetAccountId,
        asset_account_name: checked.assetAccountName,
        merchant_name: checked.merchantName,
        cost_cents: asset.costCents,
        salvage_cents: asset.salvageCents,
        useful_life: asset.usefulLife,
        total_estimated_units: asset.totalEstimatedUnits,
        unit_produced_per_year: asset.unitProducedPerYear,
        method: asset.method,
        previous_category_id: checked.previousCategoryId || null,
        created_by: tenant.userId ?? null,
      };
      await withTenant(db, tenant, async (trx) => {
        if (await assetOfTransaction(trx, transactionId))
          throw new AppError(ErrorKind.Conflict, FIXED_ASSET_MSG.alreadyAsset, {
            appErrorCode: 'TRANSACTION_LINKED',
            fields: [{ field: 'transactionId', message: FIXED_ASSET_MSG.alreadyAsset }],
          });
        await insertAsset(
          trx,
          row,
          months.map((m) => ({
            id: newId(),
            workspace_id: tenant.workspaceId,
            asset_id: id,
            month_index: m.index,
            depreciation_date: m.depreciationDate,
            beginning_cents: m.beginningCarryingValueCents,
            amount_cents: m.depreciationAmountCents,
            accumulated_cents: m.accumulatedDepreciationCents,
            ending_cents: m.endingCarryingValueCents,
          })),
        );
      }).catch((err: unknown) => {
        // Two creates of one transaction at once: the unique index lets one through.
        if ((err as { code?: string }).code === '23505')
          throw new AppError(ErrorKind.Conflict, FIXED_ASSET_MSG.alreadyAsset, {
            appErrorCode: 'TRANSACTION_LINKED',
            fields: [{ field: 'transactionId', message: FIXED_ASSET_MSG.alreadyAsset }],
          });
        throw err;
      });
      let seq = 0;
      try {
        seq = await finishCreate(tenant, row);
      } catch (err) {
        if (isRefusal(err)) throw err;
        logger.warn({ err, assetId: id }, 'fixed asset: the purchase was not booked now; the sweep books it');
      }
      wake();
      return { view: await this.get(tenant, id), seq };
    },

    async stop(tenant: Tenant, id: string): Promise<AssetView> {
      assertCanEdit(tenant, { callsWithoutRole: 'allow' });
      if (!isUuid(id)) throw notFound();
      await withTenant(db, tenant, async (trx) => {
        const a = await lockAsset(trx, id);
        if (!a || a.deleted_at) throw notFound();
        if (!a.stopped_on) await setStopped(trx, id, today());
      });
      return this.get(tenant, id);
    },

    async remove(tenant: Tenant, id: string): Promise<number> {
      assertCanEdit(tenant, { callsWithoutRole: 'allow' });
      if (!isUuid(id)) throw notFound();
      await withTenant(db, tenant, async (trx) => {
        const a = await lockAsset(trx, id);
        if (!a || a.deleted_at) throw notFound();
        await markDeleted(trx, id);
      });
      try {
        return await finishDelete(tenant, id);
      } catch (err) {
        logger.warn({ err, assetId: id }, 'fixed asset: the delete is not yet reversed in the books; the sweep finishes it');
        return 0;
      }
    },

    /** The depreciation months of live assets between two dates (the schedules' depreciation rows). */
    async depreciation(tenant: Tenant, startDate: string, endDate: string) {
      const problems: FieldProblem[] = [];
      if (startDate && !isBusinessDate(startDate)) problems.push({ field: 'startDate', message: FIXED_ASSET_MSG.range });
      if (endDate && !isBusinessDate(endDate)) problems.push({ field: 'endDate', message: FIXED_ASSET_MSG.rangeEnd });
      if (problems.length === 0 && startDate && endDate && isReversedRange(startDate, endDate))
        problems.push({ field: 'endDate', message: 'endDate cannot be before startDate' });
      if (problems.length > 0) throw AppError.invalid(problems);
      const day = today();
      return withTenant(db, tenant, async (trx) =>
        (await monthsBetween(trx, startDate, endDate)).map((m) => ({
          ...m,
          isDepreciated: m.posted_at !== null && m.reversed_at === null,
          due: m.depreciation_date <= day,
        })),
      );
    },

    /**
     * One sweep: every month due by `day` posted (oldest first; a month another replica holds is left to it), then the
     * creates and deletes a crash left unfinished. Answers the months posted.
     */
    async runDue(day = today()): Promise<number> {
      // First what a crash left unfinished (a booked purchase makes its months due at once).
      for (const a of await withSystem(db, (trx) => unfinishedAssets(trx, BOOKING_GRACE_SECONDS, SWEEP_BATCH))) {
        const tenant: Tenant = { workspaceId: a.workspace_id, userId: a.created_by ?? undefined, role: 'Admin' };
        try {
          const row = await withTenant(db, tenant, (trx) => lockAsset(trx, a.id, true));
          if (!row) continue;
          if (row.deleted_at) await finishDelete(tenant, a.id);
          else await finishCreate(tenant, row);
        } catch (err) {
          logger.warn({ err, assetId: a.id }, 'fixed asset: unfinished books; tried again at the next sweep');
        }
      }
      let posted = 0;
      const failed = new Set<string>();
      for (;;) {
        const due = (await withSystem(db, (trx) => dueMonths(trx, day, SWEEP_BATCH + failed.size))).filter((m) => !failed.has(m.asset_id));
        if (due.length === 0) break;
        let progressed = false;
        for (const m of due) {
          if (failed.has(m.asset_id)) continue;
          try {
            if (await postMonth(m)) {
              posted += 1;
              progressed = true;
            }
          } catch (err) {
            failed.add(m.asset_id);
            logger.error({ err, assetId: m.asset_id, monthId: m.id }, 'depreciation: the month could not be posted; it is tried again at the next sweep');
          }
        }
        if (!progressed) break;
      }
      return posted;
    },
  };
}

export type FixedAssetUseCases = ReturnType<typeof createFixedAssetUseCases>;
