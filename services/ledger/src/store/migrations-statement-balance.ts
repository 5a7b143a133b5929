import type { Migration } from '@ledgerline/platform';

/**
 * The balance check once per statement (issue #22, decision 0037). Before, a deferred constraint trigger ran
 * for every line at commit, each summing its entry's lines: a page of 500 bank transactions paid 1,000 trigger
 * calls and 1,000 aggregates. PostgreSQL allows neither statement-level constraint triggers nor transition
 * tables on constraint triggers, so the check is split in two, still enforced by the database for every way
 * of writing (the one writer `postEntries`, raw SQL):
 * - lines: an AFTER INSERT … FOR EACH STATEMENT trigger over the transition table sums, in one set-based
 *   query, every entry the statement touched (all its lines, earlier statements' included) and refuses the
 *   statement if any of them has fewer than two lines or unequal debits and credits. So an entry's lines are
 *   written in one statement (the one writer does; so does every raw insert in the code base).
 * - entries: the deferred per-entry constraint trigger stays, now a single index probe (does the entry have a
 *   line?): an entry whose lines never came is refused at commit; lines that came were checked above.
 */
export const statementBalanceMigration: Migration = {
  name: '20261228100000_ledger_statement_balance',
  async up(knex) {
    await knex.raw(`
      drop trigger journal_lines_balance on journal_lines;
      create function journal_lines_must_balance() returns trigger language plpgsql as $$
      declare bad record;
      begin
        select e.entry_id, e.debits, e.credits, e.lines into bad
        from (
          select l.entry_id,
                 coalesce(sum(l.amount_cents) filter (where l.direction = 'debit'), 0) as debits,
                 coalesce(sum(l.amount_cents) filter (where l.direction = 'credit'), 0) as credits,
                 count(*) as lines
          from journal_lines l
          where l.entry_id in (select distinct entry_id from new_lines)
          group by l.entry_id
        ) e
        where e.lines < 2 or e.debits <> e.credits
        limit 1;
        if found then
          raise exception 'journal entry % does not balance: debits %, credits %, lines %', bad.entry_id, bad.debits, bad.credits, bad.lines
            using errcode = '23514';
        end if;
        return null;
      end $$;
      create trigger journal_lines_balance after insert on journal_lines
        referencing new table as new_lines for each statement execute function journal_lines_must_balance();

      create or replace function journal_entry_must_balance() returns trigger language plpgsql as $$
      begin
        if not exists (select 1 from journal_lines where entry_id = new.id) then
          raise exception 'journal entry % does not balance: debits 0, credits 0, lines 0', new.id using errcode = '23514';
        end if;
        return null;
      end $$;`);
  },
  async down(knex) {
    await knex.raw(`
      drop trigger journal_lines_balance on journal_lines;
      drop function journal_lines_must_balance();
      create or replace function journal_entry_must_balance() returns trigger language plpgsql as $$
      begin perform journal_entry_check_balance(new.id); return null; end $$;
      create constraint trigger journal_lines_balance after insert on journal_lines
        deferrable initially deferred for each row execute function journal_line_must_balance();`);
  },
};
