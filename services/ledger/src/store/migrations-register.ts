import { enableTenantRls, type Migration } from '@ledgerline/platform';

/**
 * The bank register (issue #12, Build 5): the ledger of a bank or card account shows one line per bank
 * transaction. Re-categorising books a reversal and a new entry; the reversed entry's lines and its
 * reversal's lines on a bank ledger account (`accounts.bank_account_id` set) are hidden from that
 * account's register when they fall on the same date (they net to zero there, so no balance moves).
 *
 * Posted lines never change: hiding is recorded beside them, when the reversal's lines are inserted
 * (a statement trigger on `journal_lines`, so every way of posting — `postEntries`, the batch ingest,
 * raw SQL — hides alike, inside the posting transaction):
 * - `register_hidden_lines`: one row per hidden line, keyed by its place (account, date, `day_seq`),
 *   with its signed amount (debit − credit), so a page that starts inside a day finds the day's hidden
 *   places and their net in one short index range;
 * - `hidden_count` / `hidden_cents` on `account_balances` (month) and `account_day_balances` (day): how
 *   many lines are hidden and their debits (= their credits: hidden lines net to zero per day), so the
 *   page seek walks visible counts exactly as it walked all lines.
 *
 * A pair hides when: the reversal R reverses E, E is not itself a reversal, both are dated alike, and
 * the lines of E and R on the bank account net to zero and none of them is hidden yet. The rows the
 * counts update are the ones the reversal's own posting just locked (same account × day and month).
 */
export const registerMigration: Migration = {
  name: '20261202100000_ledger_bank_register',
  async up(knex) {
    // The backfill reads and writes every workspace's rows.
    await knex.raw("select set_config('app.system', 'on', true)");
    await knex.raw(`
      alter table account_balances add column hidden_count integer not null default 0, add column hidden_cents bigint not null default 0;
      alter table account_day_balances add column hidden_count integer not null default 0, add column hidden_cents bigint not null default 0;`);
    await knex.schema.createTable('register_hidden_lines', (t) => {
      t.uuid('workspace_id').notNullable();
      t.uuid('account_id').notNullable().references('accounts.id');
      t.date('entry_date').notNullable();
      t.integer('day_seq').notNullable();
      t.bigInteger('line_id').notNullable().unique().references('journal_lines.id');
      t.uuid('entry_id').notNullable();
      // The reversal that hid it (itself, for the reversal's own lines).
      t.uuid('reversal_entry_id').notNullable();
      t.bigInteger('net_cents').notNullable();
      t.primary(['workspace_id', 'account_id', 'entry_date', 'day_seq']);
    });
    await enableTenantRls(knex, 'register_hidden_lines');
    await knex.raw(`
      create function register_hide_reversals(reversal_ids uuid[]) returns void language plpgsql as $$
      begin
        if coalesce(cardinality(reversal_ids), 0) = 0 then return; end if;
        with pairs as (
          select r.id as rev_id, r.reverses_entry_id as orig_id
          from journal_entries r join journal_entries o on o.id = r.reverses_entry_id
          where r.id = any(reversal_ids) and o.entry_date = r.entry_date and o.reverses_entry_id is null
        ), pl as (
          select p.rev_id, l.id as line_id, l.workspace_id, l.account_id, l.entry_date, l.day_seq, l.entry_id,
                 case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end as net,
                 h.line_id is not null as already
          from pairs p
          join journal_lines l on l.entry_id in (p.rev_id, p.orig_id)
          join accounts a on a.id = l.account_id and a.bank_account_id is not null
          left join register_hidden_lines h on h.line_id = l.id
        ), ok as (
          select rev_id, account_id from pl group by rev_id, account_id
          having sum(net) = 0 and bool_or(entry_id = rev_id) and bool_or(entry_id <> rev_id) and not bool_or(already)
        ), hidden as (
          insert into register_hidden_lines (workspace_id, account_id, entry_date, day_seq, line_id, entry_id, reversal_entry_id, net_cents)
          select pl.workspace_id, pl.account_id, pl.entry_date, pl.day_seq, pl.line_id, pl.entry_id, pl.rev_id, pl.net
          from pl join ok using (rev_id, account_id)
          returning workspace_id, account_id, entry_date, net_cents
        ), per_day as (
          select workspace_id, account_id, entry_date as day, count(*)::int as n, sum(greatest(net_cents, 0))::bigint as cents
          from hidden group by 1, 2, 3
        ), months as (
          update account_balances b set hidden_count = b.hidden_count + m.n, hidden_cents = b.hidden_cents + m.cents
          from (select workspace_id, account_id, date_trunc('month', day)::date as month, sum(n)::int as n, sum(cents)::bigint as cents from per_day group by 1, 2, 3) m
          where b.workspace_id = m.workspace_id and b.account_id = m.account_id and b.month = m.month
          returning 1
        )
        update account_day_balances b set hidden_count = b.hidden_count + d.n, hidden_cents = b.hidden_cents + d.cents
        from per_day d
        where b.workspace_id = d.workspace_id and b.account_id = d.account_id and b.day = d.day and (select count(*) from months) >= 0;
      end $$;
      create function register_hide_on_insert() returns trigger language plpgsql as $$
      begin
        perform register_hide_reversals(array(
          select distinct n.entry_id from new_lines n
          join accounts a on a.id = n.account_id and a.bank_account_id is not null
          join journal_entries e on e.id = n.entry_id and e.reverses_entry_id is not null));
        return null;
      end $$;
      create trigger journal_lines_register after insert on journal_lines
        referencing new table as new_lines for each statement execute function register_hide_on_insert();`);
    // Existing books: every reversal's pair computed once.
    await knex.raw('select register_hide_reversals(array(select id from journal_entries where reverses_entry_id is not null))');
  },
  async down(knex) {
    await knex.raw(
      'drop trigger if exists journal_lines_register on journal_lines; drop function if exists register_hide_on_insert(); drop function if exists register_hide_reversals(uuid[])',
    );
    await knex.schema.dropTableIfExists('register_hidden_lines');
    await knex.raw(`
      alter table account_balances drop column hidden_count, drop column hidden_cents;
      alter table account_day_balances drop column hidden_count, drop column hidden_cents;`);
  },
};
