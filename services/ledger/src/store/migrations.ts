import { categorisationMigration } from './migrations-categorisation.js';
import { enableTenantRls, platformMigrations, type Migration } from '@ledgerline/platform';
import { accrualsMigration } from './migrations-accruals.js';
import { drawerMigration } from './migrations-drawer.js';
import { fiscalYearMigration } from './migrations-fiscal-year.js';
import { membersMigration } from './migrations-members.js';
import { merchantsMigration } from './migrations-merchants.js';
import { oneSidedTransfersMigration } from './migrations-one-sided.js';
import { positionsMigration } from './migrations-positions.js';
import { postingsMigration } from './migrations-postings.js';
import { registerMigration } from './migrations-register.js';
import { seqMigration } from './migrations-seq.js';
import { tieOutMigration } from './migrations-tieout.js';
import { transfersMigration } from './migrations-transfers.js';
import { vendorsMigration } from './migrations-vendors.js';
import { vendorRulesMigration } from './migrations-vendor-rules.js';
import { partyCreditsMigration } from './migrations-party-credits.js';
import { statementBalanceMigration } from './migrations-statement-balance.js';
import { setBasedChecksMigration } from './migrations-set-based-checks.js';

const TENANT_TABLES = ['ledger_workspaces', 'accounts', 'journal_entries', 'journal_lines', 'account_balances', 'billers', 'workspace_transactions'] as const;

/**
 * The books (ARCHITECTURE §3): accounts in four levels, journal entries and lines in integer cents.
 * The database itself refuses an unbalanced entry (a deferred constraint trigger checks each entry at
 * commit) and any UPDATE, DELETE or TRUNCATE of posted entries and lines: a change is a reversal (which
 * names the entry it reverses, at most once) plus a new entry.
 */
export const ledgerMigrations: Migration[] = [
  ...platformMigrations,
  {
    name: '20261123110000_ledger_books',
    async up(knex) {
      // A workspace whose default chart has been seeded (seeding is idempotent through this row).
      await knex.schema.createTable('ledger_workspaces', (t) => {
        t.uuid('workspace_id').primary();
        t.text('name').notNullable().defaultTo('');
        t.timestamp('seeded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });

      await knex.schema.createTable('accounts', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('name').notNullable();
        t.integer('coa_id').notNullable();
        t.text('class_group').notNullable();
        t.smallint('level').notNullable();
        t.uuid('parent_id').references('accounts.id');
        t.text('group_name').notNullable().defaultTo('');
        t.text('tag').notNullable().defaultTo('');
        t.boolean('is_user_created').notNullable().defaultTo(true);
        // Accounts the ledger itself looks up: uncategorised_income, retained_earnings, cash...
        t.text('system_key');
        // The banking service's id of the linked bank or card account this ledger account books.
        t.uuid('bank_account_id');
        t.boolean('qbo_synced').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.unique(['workspace_id', 'coa_id']);
        t.unique(['workspace_id', 'system_key']);
        t.unique(['workspace_id', 'bank_account_id']);
      });
      await knex.raw('alter table accounts add constraint accounts_coa_id check (coa_id >= 10000)');
      await knex.raw(
        "alter table accounts add constraint accounts_class check (class_group in ('Assets', 'Liability', 'Income', 'Expenses', 'Transfer', 'Equity'))",
      );
      await knex.raw('alter table accounts add constraint accounts_level check (level between 1 and 4 and (level = 1) = (parent_id is null))');
      await knex.raw('create index accounts_parent on accounts (workspace_id, parent_id)');

      await knex.schema.createTable('journal_entries', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.bigIncrements('seq', { primaryKey: false });
        t.date('entry_date').notNullable();
        t.text('source_type').notNullable();
        t.uuid('source_id');
        t.text('description').notNullable().defaultTo('');
        t.uuid('reverses_entry_id').references('journal_entries.id');
        t.uuid('transaction_id');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw(
        "alter table journal_entries add constraint journal_entries_source check (source_type in ('WorkspaceTransaction', 'OpeningBalance', 'ManualEntry', 'Bill', 'Invoice', 'FixedAsset', 'VendorCredit', 'CreditMemo'))",
      );
      // An entry is reversed at most once (RELIABILITY 2).
      await knex.raw('create unique index journal_entries_one_reversal on journal_entries (reverses_entry_id) where reverses_entry_id is not null');
      await knex.raw('create index journal_entries_date on journal_entries (workspace_id, entry_date, seq)');

      await knex.schema.createTable('journal_lines', (t) => {
        t.bigIncrements('id');
        t.uuid('workspace_id').notNullable();
        t.uuid('entry_id').notNullable().references('journal_entries.id');
        t.uuid('account_id').notNullable().references('accounts.id');
        t.text('direction').notNullable();
        t.bigInteger('amount_cents').notNullable();
        t.date('entry_date').notNullable();
        t.uuid('transaction_id');
      });
      await knex.raw("alter table journal_lines add constraint journal_lines_direction check (direction in ('debit', 'credit'))");
      await knex.raw('alter table journal_lines add constraint journal_lines_positive check (amount_cents > 0)');
      await knex.raw('create index journal_lines_entry on journal_lines (entry_id)');
      // The general ledger of one account, in date order, seeks by (entry_date, id).
      await knex.raw('create index journal_lines_account_date on journal_lines (workspace_id, account_id, entry_date, id)');

      await knex.raw(`
        create function journal_entry_check_balance(eid uuid) returns void language plpgsql as $$
        declare debits bigint; credits bigint; lines int;
        begin
          select coalesce(sum(amount_cents) filter (where direction = 'debit'), 0),
                 coalesce(sum(amount_cents) filter (where direction = 'credit'), 0), count(*)
            into debits, credits, lines
            from journal_lines where entry_id = eid;
          if lines < 2 or debits <> credits then
            raise exception 'journal entry % does not balance: debits %, credits %, lines %', eid, debits, credits, lines
              using errcode = '23514';
          end if;
        end $$;
        create function journal_line_must_balance() returns trigger language plpgsql as $$
        begin perform journal_entry_check_balance(new.entry_id); return null; end $$;
        create function journal_entry_must_balance() returns trigger language plpgsql as $$
        begin perform journal_entry_check_balance(new.id); return null; end $$;
        create constraint trigger journal_lines_balance after insert on journal_lines
          deferrable initially deferred for each row execute function journal_line_must_balance();
        create constraint trigger journal_entries_balance after insert on journal_entries
          deferrable initially deferred for each row execute function journal_entry_must_balance();

        create function journal_is_immutable() returns trigger language plpgsql as $$
        begin
          raise exception '% are immutable once posted: post a reversal and a new entry instead', tg_table_name
            using errcode = '42501';
        end $$;
        create trigger journal_lines_immutable before update or delete on journal_lines
          for each row execute function journal_is_immutable();
        create trigger journal_lines_no_truncate before truncate on journal_lines
          for each statement execute function journal_is_immutable();
        create trigger journal_entries_immutable before update or delete on journal_entries
          for each row execute function journal_is_immutable();
        create trigger journal_entries_no_truncate before truncate on journal_entries
          for each statement execute function journal_is_immutable();
      `);

      // Balances by account x month, kept in the posting transaction (STACK.md: app upsert, -7% insert
      // speed); the general ledger reads opening balances and seeks pages through it.
      await knex.schema.createTable('account_balances', (t) => {
        t.uuid('workspace_id').notNullable();
        t.uuid('account_id').notNullable().references('accounts.id');
        t.date('month').notNullable();
        t.bigInteger('debit_cents').notNullable().defaultTo(0);
        t.bigInteger('credit_cents').notNullable().defaultTo(0);
        t.integer('line_count').notNullable().defaultTo(0);
        t.primary(['workspace_id', 'account_id', 'month']);
      });

      await knex.schema.createTable('billers', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.text('name').notNullable();
        t.uuid('category_id').references('accounts.id');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('create unique index billers_name on billers (workspace_id, lower(name))');

      // The bookkeeping view of a bank transaction. Mutable (category, finalization); the books it
      // produces are not: every change posts a reversal of current_entry_id and a new entry.
      await knex.schema.createTable('workspace_transactions', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('bank_transaction_id').notNullable();
        t.uuid('bank_account_id').notNullable();
        t.uuid('ledger_account_id').references('accounts.id');
        t.text('external_id').notNullable().defaultTo('');
        t.bigInteger('amount_cents').notNullable().defaultTo(0);
        t.text('iso_currency_code').notNullable().defaultTo('USD');
        t.date('txn_date');
        t.text('name').notNullable().defaultTo('');
        t.text('memo').notNullable().defaultTo('');
        t.boolean('pending').notNullable().defaultTo(false);
        t.uuid('biller_id').references('billers.id');
        t.uuid('category_id').references('accounts.id');
        t.uuid('current_entry_id').references('journal_entries.id');
        t.bigInteger('version').notNullable().defaultTo(0);
        t.boolean('is_removed').notNullable().defaultTo(false);
        t.boolean('is_finalized').notNullable().defaultTo(false);
        t.uuid('vendor_id');
        t.uuid('applied_rule_id');
        // Links and states other parts of issue #4 and later issues set (spec §4 restrictions).
        t.text('entity_type');
        t.uuid('entity_id');
        t.boolean('qbo_synced').notNullable().defaultTo(false);
        t.boolean('is_split_parent').notNullable().defaultTo(false);
        t.boolean('is_split_child').notNullable().defaultTo(false);
        t.boolean('is_accrued_parent').notNullable().defaultTo(false);
        t.boolean('is_accrual_child').notNullable().defaultTo(false);
        t.boolean('is_opening_balance').notNullable().defaultTo(false);
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        // One bookkeeping transaction per bank transaction (RELIABILITY 5: no duplicate).
        t.unique(['workspace_id', 'bank_transaction_id']);
      });
      await knex.raw('create index workspace_transactions_list on workspace_transactions (workspace_id, txn_date, id) where not is_removed');
      await knex.raw('create index workspace_transactions_biller on workspace_transactions (workspace_id, biller_id)');

      for (const table of TENANT_TABLES) await enableTenantRls(knex, table);
    },
    async down(knex) {
      for (const table of ['workspace_transactions', 'billers', 'account_balances', 'journal_lines', 'journal_entries', 'accounts', 'ledger_workspaces']) {
        await knex.schema.dropTableIfExists(table);
      }
      await knex.raw(
        'drop function if exists journal_entry_must_balance(); drop function if exists journal_line_must_balance(); drop function if exists journal_entry_check_balance(uuid); drop function if exists journal_is_immutable();',
      );
    },
  },
  {
    name: '20261123120000_ledger_splits',
    async up(knex) {
      // The parts of a split transaction (the parent's own part included): their category lines replace
      // the single category line of its entry. Parts are mutable; the entries they produce are not.
      await knex.schema.createTable('transaction_splits', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('transaction_id').notNullable().references('workspace_transactions.id');
        // Signed like the transaction's amount; never zero.
        t.bigInteger('amount_cents').notNullable();
        t.uuid('category_id').notNullable().references('accounts.id');
        t.boolean('is_parent_part').notNullable().defaultTo(false);
        t.integer('position').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('alter table transaction_splits add constraint transaction_splits_nonzero check (amount_cents <> 0)');
      await knex.raw('create index transaction_splits_txn on transaction_splits (transaction_id, position)');
      await enableTenantRls(knex, 'transaction_splits');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('transaction_splits');
    },
  },
  {
    name: '20261123123000_ledger_audit_logs',
    async up(knex) {
      // Who changed what on a transaction; appended in the same database transaction as the change, never edited.
      await knex.schema.createTable('transaction_audit_logs', (t) => {
        t.uuid('id').primary();
        t.uuid('workspace_id').notNullable();
        t.uuid('transaction_id').notNullable().references('workspace_transactions.id');
        t.uuid('user_id');
        t.text('event').notNullable();
        t.jsonb('details').notNullable().defaultTo('{}');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('create index transaction_audit_logs_list on transaction_audit_logs (workspace_id, transaction_id, id desc)');
      await knex.raw(`
        create trigger transaction_audit_logs_immutable before update or delete on transaction_audit_logs
          for each row execute function journal_is_immutable();`);
      await enableTenantRls(knex, 'transaction_audit_logs');
    },
    async down(knex) {
      await knex.schema.dropTableIfExists('transaction_audit_logs');
    },
  },
  positionsMigration,
  postingsMigration,
  accrualsMigration,
  seqMigration,
  merchantsMigration,
  fiscalYearMigration,
  transfersMigration,
  tieOutMigration,
  registerMigration,
  oneSidedTransfersMigration,
  drawerMigration,
  vendorsMigration,
  vendorRulesMigration,
  partyCreditsMigration,
  categorisationMigration,
  statementBalanceMigration,
  membersMigration,
  setBasedChecksMigration,
];
