import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Fixed assets (issue #19 item 6): `fixed_assets` one row per asset (the purchase transaction, the depreciation inputs,
 * where its books stand: purchase_booked, stopped_on, deleted_at / released); `fixed_asset_schedule` one row per month
 * of its schedule, drawn at creation. A row's id is the ledger's source id of that month's entry (source FixedAsset,
 * version 1; version 2 its reversal when the asset is deleted): the idempotency key of the posting, so however many
 * scheduler replicas race and after any restart a month is in the books once at most.
 */
export const fixedAssetsMigration: Migration = {
  name: '20261128071500_documents_fixed_assets',
  async up(knex) {
    await knex.raw(`create table fixed_assets (
      id uuid primary key,
      workspace_id uuid not null,
      transaction_id uuid not null,
      purchase_date date not null,
      depreciation_start_date date not null,
      description text not null default '',
      asset_account_id uuid not null,
      asset_account_name text not null default '',
      merchant_name text not null default '',
      cost_cents bigint not null check (cost_cents > 0),
      salvage_cents bigint not null check (salvage_cents >= 0 and salvage_cents <= cost_cents),
      useful_life int not null check (useful_life >= 0),
      total_estimated_units double precision not null default 0 check (total_estimated_units >= 0),
      unit_produced_per_year double precision not null default 0 check (unit_produced_per_year >= 0),
      method text not null check (method in ('STRAIGHT_LINE', 'UNITS_OF_PRODUCTION', 'DOUBLE_DECLINING_BALANCE', 'SUM_OF_YEARS_DIGITS')),
      previous_category_id uuid,
      purchase_booked boolean not null default false,
      stopped_on date,
      deleted_at timestamptz,
      released boolean not null default false,
      qbo_synced boolean not null default false,
      created_by uuid,
      created_at timestamptz not null default now()
    )`);
    await knex.raw('create unique index fixed_assets_transaction on fixed_assets (workspace_id, transaction_id) where deleted_at is null');
    await knex.raw('create index fixed_assets_list on fixed_assets (workspace_id, purchase_date desc, id) where deleted_at is null');
    await knex.raw(
      'create index fixed_assets_unfinished on fixed_assets (id) where (deleted_at is null and not purchase_booked) or (deleted_at is not null and not released)',
    );
    await enableTenantRls(knex, 'fixed_assets');

    await knex.raw(`create table fixed_asset_schedule (
      id uuid primary key,
      workspace_id uuid not null,
      asset_id uuid not null references fixed_assets(id),
      month_index int not null,
      depreciation_date date not null,
      beginning_cents bigint not null,
      amount_cents bigint not null check (amount_cents >= 0),
      accumulated_cents bigint not null,
      ending_cents bigint not null,
      posted_at timestamptz,
      journal_entry_id uuid,
      reversed_at timestamptz,
      unique (asset_id, month_index)
    )`);
    await knex.raw('create index fixed_asset_schedule_due on fixed_asset_schedule (depreciation_date) where posted_at is null');
    await knex.raw('create index fixed_asset_schedule_workspace on fixed_asset_schedule (workspace_id, depreciation_date)');
    await enableTenantRls(knex, 'fixed_asset_schedule');
  },
  async down(knex) {
    await knex.raw('drop table if exists fixed_asset_schedule');
    await knex.raw('drop table if exists fixed_assets');
  },
};
