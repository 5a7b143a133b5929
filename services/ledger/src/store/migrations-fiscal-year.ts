import type { Migration } from '@ledgerline/platform';

/**
 * The first month of each workspace's fiscal year (issue #12), default January. On `ledger_workspaces`
 * (one row per workspace, already under row-level security), so no new table is needed.
 */
export const fiscalYearMigration: Migration = {
  name: '20261125120000_ledger_fiscal_year',
  async up(knex) {
    await knex.raw(
      'alter table ledger_workspaces add column fiscal_year_start_month smallint not null default 1 check (fiscal_year_start_month between 1 and 12)',
    );
  },
  async down(knex) {
    await knex.raw('alter table ledger_workspaces drop column fiscal_year_start_month');
  },
};
