import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * Positions for the general ledger's page seek (issue #4: a deep page costs what the first does).
 * An account's lines are shown in (entry_date, day_seq) order. Lines arrive back-dated (bank
 * transactions, reversals dated like their entry), so a position over the whole account cannot be
 * fixed at posting time; within one account × day it can: `day_seq` is the line's place in posting
 * order that day and `day_net_before` the debits − credits of the account's earlier lines that day,
 * both assigned under the lock of the account × day balances row and never changed (lines are
 * immutable). Page N then reads ≤ 36 month rows and ≤ 31 day rows to find its day and place, and
 * one index range of `take` lines; the balance before it comes from the same rows.
 */
export const positionsMigration: Migration = {
  name: '20261123131000_ledger_line_positions',
  async up(knex) {
    // The backfill reads and writes every workspace's rows.
    await knex.raw("select set_config('app.system', 'on', true)");
    await knex.schema.createTable('account_day_balances', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('account_id').notNullable().references('accounts.id');
      t.date('day').notNullable();
      t.bigInteger('debit_cents').notNullable().defaultTo(0);
      t.bigInteger('credit_cents').notNullable().defaultTo(0);
      t.integer('line_count').notNullable().defaultTo(0);
      t.primary(['workspace_id', 'account_id', 'day']);
    });
    await knex.raw(`
      insert into account_day_balances (workspace_id, account_id, day, debit_cents, credit_cents, line_count)
      select workspace_id, account_id, entry_date,
             coalesce(sum(amount_cents) filter (where direction = 'debit'), 0), coalesce(sum(amount_cents) filter (where direction = 'credit'), 0), count(*)
      from journal_lines group by workspace_id, account_id, entry_date`);
    await enableTenantRls(knex, 'account_day_balances');

    await knex.raw('alter table journal_lines add column day_seq integer, add column day_net_before bigint');
    // Lines posted before this migration get their places in id order; only this backfill may write them.
    await knex.raw('alter table journal_lines disable trigger journal_lines_immutable');
    await knex.raw(`
      update journal_lines l set day_seq = x.seq, day_net_before = x.net_before
      from (select id, row_number() over w as seq,
                   coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end) over (w rows between unbounded preceding and 1 preceding), 0) as net_before
            from journal_lines window w as (partition by workspace_id, account_id, entry_date order by id)) x
      where x.id = l.id`);
    await knex.raw('alter table journal_lines enable trigger journal_lines_immutable');
    await knex.raw('alter table journal_lines alter column day_seq set not null, alter column day_net_before set not null');
    // A line written without a place (raw SQL: seeding, repairs) is placed by the database, and its
    // month and day balances kept, exactly as postEntry does in its one statement.
    await knex.raw(`
      create function journal_line_place() returns trigger language plpgsql as $$
      declare
        d bigint := case when new.direction = 'debit' then new.amount_cents else 0 end;
        c bigint := case when new.direction = 'credit' then new.amount_cents else 0 end;
        n int; net bigint;
      begin
        insert into account_balances (workspace_id, account_id, month, debit_cents, credit_cents, line_count)
        values (new.workspace_id, new.account_id, date_trunc('month', new.entry_date)::date, d, c, 1)
        on conflict (workspace_id, account_id, month) do update set debit_cents = account_balances.debit_cents + d,
          credit_cents = account_balances.credit_cents + c, line_count = account_balances.line_count + 1;
        insert into account_day_balances (workspace_id, account_id, day, debit_cents, credit_cents, line_count)
        values (new.workspace_id, new.account_id, new.entry_date, d, c, 1)
        on conflict (workspace_id, account_id, day) do update set debit_cents = account_day_balances.debit_cents + d,
          credit_cents = account_day_balances.credit_cents + c, line_count = account_day_balances.line_count + 1
        returning line_count, debit_cents - credit_cents into n, net;
        new.day_seq := n;
        new.day_net_before := net - (d - c);
        return new;
      end $$;
      create trigger journal_lines_place before insert on journal_lines
        for each row when (new.day_seq is null) execute function journal_line_place();`);
    // Unique: two lines can never share a place, so a wrong assignment fails loudly instead of mis-paging.
    await knex.raw('drop index journal_lines_account_date');
    await knex.raw('create unique index journal_lines_account_position on journal_lines (workspace_id, account_id, entry_date, day_seq)');
  },
  async down(knex) {
    await knex.raw('drop trigger if exists journal_lines_place on journal_lines; drop function if exists journal_line_place()');
    await knex.raw('drop index if exists journal_lines_account_position');
    await knex.raw('create index journal_lines_account_date on journal_lines (workspace_id, account_id, entry_date, id)');
    await knex.raw('alter table journal_lines drop column day_seq, drop column day_net_before');
    await knex.schema.dropTableIfExists('account_day_balances');
  },
};
