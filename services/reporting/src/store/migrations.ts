import { disableTenantRls, enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';

const TENANT_TABLES = ['balances_monthly', 'balances_daily', 'projected_entries'] as const;
const MERCHANT_TABLES = ['merchant_balances_monthly', 'merchant_balances_daily', 'merchants'] as const;
const ORIGIN_KEYS = [
  ['balances_monthly', ['workspace_id', 'month', 'account_id']],
  ['balances_daily', ['workspace_id', 'day', 'account_id']],
  ['merchant_balances_monthly', ['workspace_id', 'month', 'account_id', 'biller_id']],
  ['merchant_balances_daily', ['workspace_id', 'day', 'account_id', 'biller_id']],
] as const;

/**
 * The read model (ARCHITECTURE §3): debits, credits and line counts per workspace × account × month and
 * × day, kept from entry.posted. A report over N periods reads O(accounts × N) rows, never the lines.
 * `projected_entries` remembers every entry applied (idempotency by entry id on top of the inbox's event
 * id, and the ledger's commit sequence that report requests wait for).
 */
export const reportingMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123130000_reporting_balances',
    async up(knex) {
      for (const [table, period] of [
        ['balances_monthly', 'month'],
        ['balances_daily', 'day'],
      ] as const) {
        await knex.schema.createTable(table, (t) => {
          t.uuid('workspace_id').notNullable();
          // First day of the month for balances_monthly.
          t.date(period).notNullable();
          t.uuid('account_id').notNullable();
          t.bigInteger('debit_cents').notNullable().defaultTo(0);
          t.bigInteger('credit_cents').notNullable().defaultTo(0);
          t.bigInteger('line_count').notNullable().defaultTo(0);
          // Reports read a workspace's range of periods across all accounts: that is the key's order.
          t.primary(['workspace_id', period, 'account_id']);
        });
      }
      await knex.raw('alter table balances_monthly add constraint balances_monthly_first_day check (extract(day from month) = 1)');
      await knex.schema.createTable('projected_entries', (t) => {
        t.uuid('entry_id').primary();
        t.uuid('workspace_id').notNullable();
        t.bigInteger('seq').notNullable();
        t.date('entry_date').notNullable();
        t.timestamp('projected_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('create index projected_entries_seq on projected_entries (workspace_id, seq)');
      // Which durable consumer feeds the tables: a rebuild starts a new generation that replays the stream.
      await knex.schema.createTable('projection_state', (t) => {
        t.smallint('id').primary();
        t.integer('generation').notNullable().defaultTo(0);
        t.timestamp('rebuilt_at', { useTz: true });
      });
      await knex.raw('alter table projection_state add constraint projection_state_single check (id = 1)');
      await knex('projection_state').insert({ id: 1, generation: 0 });
      for (const table of TENANT_TABLES) await enableTenantRls(knex, table);
    },
    async down(knex) {
      for (const table of TENANT_TABLES) await disableTenantRls(knex, table);
      for (const table of ['projection_state', 'projected_entries', 'balances_daily', 'balances_monthly']) await knex.schema.dropTable(table);
    },
  },
  {
    // Spending and top merchants (issue #5): the balances again, split by the entry's merchant (its
    // biller; the nil uuid for none), with entries counted (a reversal −1) for "transactions per merchant".
    name: '20261123170000_reporting_merchants',
    async up(knex) {
      for (const [table, period] of [
        ['merchant_balances_monthly', 'month'],
        ['merchant_balances_daily', 'day'],
      ] as const) {
        await knex.schema.createTable(table, (t) => {
          t.uuid('workspace_id').notNullable();
          t.date(period).notNullable();
          t.uuid('account_id').notNullable();
          t.uuid('biller_id').notNullable();
          t.bigInteger('debit_cents').notNullable().defaultTo(0);
          t.bigInteger('credit_cents').notNullable().defaultTo(0);
          t.bigInteger('line_count').notNullable().defaultTo(0);
          t.bigInteger('txn_count').notNullable().defaultTo(0);
          t.primary(['workspace_id', period, 'account_id', 'biller_id']);
        });
      }
      await knex.schema.createTable('merchants', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('biller_id').notNullable();
        t.text('name').notNullable();
        // The ledger sequence of the entry the name came from: the latest name wins whatever the delivery order.
        t.bigInteger('seq').notNullable();
        t.primary(['workspace_id', 'biller_id']);
      });
      for (const table of MERCHANT_TABLES) await enableTenantRls(knex, table);
    },
    async down(knex) {
      for (const table of MERCHANT_TABLES) await disableTenantRls(knex, table);
      for (const table of MERCHANT_TABLES) await knex.schema.dropTable(table);
    },
  },
  {
    name: '20261123180000_reporting_workspace_versions',
    async up(knex) {
      // Bumped in the same transaction as every batch that changes a workspace's balances: a report
      // built at version v is still exact while the version is v (src/usecases/report-cache.ts).
      await knex.schema.createTable('workspace_versions', (t) => {
        t.uuid('workspace_id').primary();
        t.bigInteger('version').notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await enableTenantRls(knex, 'workspace_versions');
    },
    async down(knex) {
      await disableTenantRls(knex, 'workspace_versions');
      await knex.schema.dropTable('workspace_versions');
    },
  },
  {
    name: '20261123190000_reporting_workspace_version_function',
    async up(knex) {
      // The one read of a cached report's request: one statement, no transaction around it. It sets the
      // tenant for its own statement only (set_config(..., true) ends with the implicit transaction), so
      // row-level security applies as in any tenant read.
      await knex.raw(`create function reporting_workspace_version(ws uuid) returns bigint language plpgsql as $$
        begin
          perform set_config('app.workspace_id', ws::text, true);
          return coalesce((select version from workspace_versions where workspace_id = ws), 0);
        end $$`);
    },
    async down(knex) {
      await knex.raw('drop function reporting_workspace_version(uuid)');
    },
  },
  {
    // Spec §3 money types (src/domain/origins.ts): every balance is kept per origin of its entries (bank,
    // document, adjustment). Rows applied before hold origin 3, unclassified: the events were not kept
    // here, so nothing says where they came from. ALL and adjusted read them as before; non-bank and
    // unadjusted answer 503 for a workspace listed in origins_unclassified until a rebuild replays the
    // events (which empties that list).
    name: '20261123200000_reporting_balance_origins',
    async up(knex) {
      for (const [table, key] of ORIGIN_KEYS) {
        await knex.raw(`alter table ${table} add column origin smallint not null default 3`);
        await knex.raw(`alter table ${table} alter column origin drop default`);
        await knex.raw(`alter table ${table} add constraint ${table}_origin check (origin between 0 and 3)`);
        await knex.raw(`alter table ${table} drop constraint ${table}_pkey, add primary key (${[...key, 'origin'].join(', ')})`);
      }
      await knex.schema.createTable('origins_unclassified', (t) => {
        t.uuid('workspace_id').primary();
      });
      await knex.raw('insert into origins_unclassified (workspace_id) select distinct workspace_id from balances_monthly');
      await enableTenantRls(knex, 'origins_unclassified');
    },
    async down(knex) {
      await disableTenantRls(knex, 'origins_unclassified');
      await knex.schema.dropTable('origins_unclassified');
      for (const [table, key] of ORIGIN_KEYS) {
        const values = table.startsWith('merchant') ? 'debit_cents, credit_cents, line_count, txn_count' : 'debit_cents, credit_cents, line_count';
        const sums = values
          .split(', ')
          .map((c) => `sum(${c})`)
          .join(', ');
        await knex.raw(`create temporary table origin_down as select ${key.join(', ')}, ${sums} from ${table} group by ${key.join(', ')}`);
        await knex.raw(`delete from ${table}`);
        await knex.raw(`alter table ${table} drop constraint ${table}_pkey, drop column origin, add primary key (${key.join(', ')})`);
        await knex.raw(`insert into ${table} (${key.join(', ')}, ${values}) select * from origin_down`);
        await knex.raw('drop table origin_down');
      }
    },
  },
  {
    // chart.changed (events/v1/ledger.proto): the sequence numbers of the chart changes applied (a report
    // read that names one waits for it, as for an entry) and a chart version per workspace, bumped by the
    // consumer, which every replica's chart cache compares before using what it holds.
    name: '20261201100000_reporting_chart_changes',
    async up(knex) {
      await knex.schema.createTable('chart_changes', (t) => {
        t.uuid('workspace_id').notNullable();
        t.bigInteger('seq').notNullable();
        t.timestamp('applied_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.primary(['workspace_id', 'seq']);
      });
      await enableTenantRls(knex, 'chart_changes');
      await knex.schema.createTable('chart_versions', (t) => {
        t.uuid('workspace_id').primary();
        t.bigInteger('version').notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await enableTenantRls(knex, 'chart_versions');
      // The currency of each linked bank account (bank_account.linked / .synced): accounts not in USD are
      // left out of the USD reports, with a notice.
      await knex.schema.createTable('bank_account_currencies', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('bank_account_id').notNullable();
        t.text('iso_currency_code').notNullable();
        t.primary(['workspace_id', 'bank_account_id']);
      });
      await enableTenantRls(knex, 'bank_account_currencies');
      await knex.raw(`create function reporting_chart_version(ws uuid) returns bigint language plpgsql as $$
        begin
          perform set_config('app.workspace_id', ws::text, true);
          return coalesce((select version from chart_versions where workspace_id = ws), 0);
        end $$`);
    },
    async down(knex) {
      await knex.raw('drop function reporting_chart_version(uuid)');
      for (const table of ['bank_account_currencies', 'chart_versions', 'chart_changes']) {
        await disableTenantRls(knex, table);
        await knex.schema.dropTable(table);
      }
    },
  },
  {
    // Bank transactions in another currency than the books' (USD): the ledger records them and books
    // nothing; a report whose period holds one says it leaves them out (spec §9, never summed as USD).
    name: '20261202120000_reporting_foreign_transactions',
    async up(knex) {
      await knex.schema.createTable('foreign_bank_transactions', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('bank_transaction_id').notNullable();
        t.text('iso_currency_code').notNullable();
        t.date('txn_date').notNullable();
        t.bigInteger('version').notNullable();
        t.boolean('live').notNullable();
        t.primary(['workspace_id', 'bank_transaction_id']);
        t.index(['workspace_id', 'txn_date']);
      });
      await enableTenantRls(knex, 'foreign_bank_transactions');
    },
    async down(knex) {
      await disableTenantRls(knex, 'foreign_bank_transactions');
      await knex.schema.dropTable('foreign_bank_transactions');
    },
  },
];
