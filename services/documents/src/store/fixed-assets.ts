import type { Knex } from '@ledgerline/platform';

/** Queries of fixed assets and their schedules (tables: store/fixed-assets-migration.ts). Tenant queries run under row-level security. */
export interface AssetRow {
  id: string;
  workspace_id: string;
  transaction_id: string;
  purchase_date: string;
  depreciation_start_date: string;
  description: string;
  asset_account_id: string;
  asset_account_name: string;
  merchant_name: string;
  cost_cents: number;
  salvage_cents: number;
  useful_life: number;
  total_estimated_units: number;
  unit_produced_per_year: number;
  method: string;
  previous_category_id: string | null;
  purchase_booked: boolean;
  stopped_on: string | null;
  deleted_at: Date | null;
  released: boolean;
  qbo_synced: boolean;
  created_by: string | null;
  created_at: Date;
}

export interface MonthRow {
  id: string;
  workspace_id: string;
  asset_id: string;
  month_index: number;
  depreciation_date: string;
  beginning_cents: number;
  amount_cents: number;
  accumulated_cents: number;
  ending_cents: number;
  posted_at: Date | null;
  journal_entry_id: string | null;
  reversed_at: Date | null;
}

/** An asset with what is posted of it (sum of its posted months, the months in all and posted). */
export interface AssetListRow extends AssetRow {
  posted_cents: number;
  months: number;
  posted_months: number;
}

const ASSET_COLUMNS = `a.id, a.workspace_id, a.transaction_id, a.purchase_date::text, a.depreciation_start_date::text, a.description, a.asset_account_id, a.asset_account_name, a.merchant_name,
  a.cost_cents::float8 as cost_cents, a.salvage_cents::float8 as salvage_cents, a.useful_life, a.total_estimated_units, a.unit_produced_per_year, a.method, a.previous_category_id, a.purchase_booked,
  a.stopped_on::text, a.deleted_at, a.released, a.qbo_synced, a.created_by, a.created_at`;
const MONTH_COLUMNS = `m.id, m.workspace_id, m.asset_id, m.month_index, m.depreciation_date::text, m.beginning_cents::float8 as beginning_cents, m.amount_cents::float8 as amount_cents,
  m.accumulated_cents::float8 as accumulated_cents, m.ending_cents::float8 as ending_cents, m.posted_at, m.journal_entry_id, m.reversed_at`;
const WITH_POSTED = `select ${ASSET_COLUMNS},
  coalesce((select sum(m.amount_cents) from fixed_asset_schedule m where m.asset_id = a.id and m.posted_at is not null and m.reversed_at is null), 0)::float8 as posted_cents,
  (select count(*) from fixed_asset_schedule m where m.asset_id = a.id)::int as months,
  (select count(*) from fixed_asset_schedule m where m.asset_id = a.id and m.posted_at is not null)::int as posted_months
  from fixed_assets a`;

export async function insertAsset(
  trx: Knex.Transaction,
  row: Omit<AssetRow, 'deleted_at' | 'released' | 'qbo_synced' | 'created_at' | 'purchase_booked' | 'stopped_on'>,
  months: Omit<MonthRow, 'posted_at' | 'journal_entry_id' | 'reversed_at'>[],
): Promise<void> {
  await trx('fixed_assets').insert(row);
  for (let i = 0; i < months.length; i += 500) await trx('fixed_asset_schedule').insert(months.slice(i, i + 500));
}

/** Whether a live asset already holds this transaction (the unique index's question, asked first for a clear answer). */
export async function assetOfTransaction(trx: Knex.Transaction, transactionId: string): Promise<string | undefined> {
  return ((await trx('fixed_assets').where({ transaction_id: transactionId }).whereNull('deleted_at').first('id')) as { id: string } | undefined)?.id;
}

export async function listAssets(trx: Knex.Transaction): Promise<AssetListRow[]> {
  return (await trx.raw(`${WITH_POSTED} where a.deleted_at is null order by a.purchase_date desc, a.id desc`)).rows as AssetListRow[];
}

export async function assetById(trx: Knex.Transaction, id: string): Promise<AssetListRow | undefined> {
  return (await trx.raw(`${WITH_POSTED} where a.id = ? and a.deleted_at is null`, [id])).rows[0] as AssetListRow | undefined;
}

/** The asset's row locked (deleted ones too: the clean-up of a delete locks it). */
export async function lockAsset(trx: Knex.Transaction, id: string, skipLocked = false): Promise<AssetRow | undefined> {
  return (await trx.raw(`select ${ASSET_COLUMNS} from fixed_assets a where a.id = ? for update${skipLocked ? ' skip locked' : ''}`, [id])).rows[0] as
    AssetRow | undefined;
}

/** The asset's row under a share lock: a delete or stop waits until the month being posted is committed. */
export async function shareAsset(trx: Knex.Transaction, id: string): Promise<AssetRow | undefined> {
  return (await trx.raw(`select ${ASSET_COLUMNS} from fixed_assets a where a.id = ? for share`, [id])).rows[0] as AssetRow | undefined;
}

export async function scheduleOf(trx: Knex.Transaction, assetId: string): Promise<MonthRow[]> {
  return (await trx.raw(`select ${MONTH_COLUMNS} from fixed_asset_schedule m where m.asset_id = ? order by m.month_index`, [assetId])).rows as MonthRow[];
}

export async function setPurchaseBooked(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('fixed_assets').where({ id }).update({ purchase_booked: true });
}
export async function setStopped(trx: Knex.Transaction, id: string, day: string): Promise<void> {
  await trx('fixed_assets').where({ id }).update({ stopped_on: day });
}
export async function markDeleted(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('fixed_assets').where({ id }).update({ deleted_at: trx.fn.now() });
}
export async function setReleased(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('fixed_assets').where({ id }).update({ released: true });
}
/** An asset whose purchase the ledger refused after all: nothing of it was posted, it goes. */
export async function removeUnbooked(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('fixed_asset_schedule').where({ asset_id: id }).delete();
  await trx('fixed_assets').where({ id, purchase_booked: false }).delete();
}

/** System: months due by `day` of live, booked assets (not after a stop date), oldest first. */
export async function dueMonths(trx: Knex.Transaction, day: string, limit: number): Promise<MonthRow[]> {
  return (
    await trx.raw(
      `select ${MONTH_COLUMNS} from fixed_asset_schedule m join fixed_assets a on a.id = m.asset_id
    where m.posted_at is null and m.depreciation_date <= ?::date and a.deleted_at is null and a.purchase_booked
      and (a.stopped_on is null or m.depreciation_date <= a.stopped_on)
    order by m.depreciation_date, m.id limit ?`,
      [day, limit],
    )
  ).rows as MonthRow[];
}

/** System: assets whose books are unfinished: a purchase not booked (older than `graceSeconds`: its create may still be under way) or a delete not released. */
export async function unfinishedAssets(
  trx: Knex.Transaction,
  graceSeconds: number,
  limit: number,
): Promise<{ id: string; workspace_id: string; created_by: string | null }[]> {
  return (
    await trx.raw(
      `select id, workspace_id, created_by from fixed_assets
    where ((deleted_at is null and not purchase_booked and created_at < now() - make_interval(secs => ?)) or (deleted_at is not null and not released))
    order by created_at limit ?`,
      [graceSeconds, limit],
    )
  ).rows as { id: string; workspace_id: string; created_by: string | null }[];
}

/** The month's row locked for its posting; SKIP LOCKED: another replica posting it makes this one move on. */
export async function lockMonth(trx: Knex.Transaction, id: string): Promise<MonthRow | undefined> {
  return (await trx.raw(`select ${MONTH_COLUMNS} from fixed_asset_schedule m where m.id = ? for update skip locked`, [id])).rows[0] as MonthRow | undefined;
}
export async function setPosted(trx: Knex.Transaction, id: string, entryId: string): Promise<void> {
  await trx('fixed_asset_schedule')
    .where({ id })
    .update({ posted_at: trx.fn.now(), journal_entry_id: entryId || null });
}
export async function setReversed(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('fixed_asset_schedule').where({ id }).update({ reversed_at: trx.fn.now() });
}

/** Months of live assets between two dates (inclusive; empty: unbounded), for the schedules. */
export async function monthsBetween(trx: Knex.Transaction, startDate: string, endDate: string): Promise<(MonthRow & { description: string })[]> {
  return (
    await trx.raw(
      `select ${MONTH_COLUMNS}, a.description from fixed_asset_schedule m join fixed_assets a on a.id = m.asset_id
    where a.deleted_at is null and a.purchase_booked and (a.stopped_on is null or m.depreciation_date <= a.stopped_on)
      and (?::date is null or m.depreciation_date >= ?::date) and (?::date is null or m.depreciation_date <= ?::date)
    order by m.depreciation_date, a.id`,
      [startDate || null, startDate || null, endDate || null, endDate || null],
    )
  ).rows as (MonthRow & { description: string })[];
}
