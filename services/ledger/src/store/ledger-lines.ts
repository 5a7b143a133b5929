import type { Knex } from '@ledgerline/platform';

/** A journal line as an account's ledger shows it, with its entry's description and the counter accounts. */
export interface LedgerLineRow {
  id: number;
  entry_date: string;
  day_seq: number;
  day_net_before: number;
  direction: string;
  amount_cents: number;
  entry_id: string;
  transaction_id: string | null;
  description: string;
  source_type: string;
  counter_account: string | null;
}

/** The names of the other accounts of an entry, by their key for each other line (see the note in `accountLinePage`). */
const counterOf = (entry: string) => `(select string_agg(distinct (select a.name from accounts a where a.id = l2.account_id), ', ') from journal_lines l2
                    where l2.entry_id = ${entry} and l2.account_id <> l.account_id)`;

/**
 * One page of an account's ledger from a place (account × day × `day_seq`): up to `take` lines from
 * (`day`, `place`) to `end`, in place order. A bank register (`register`) leaves out its hidden lines
 * (a reversed entry and its reversal on one date) and shows a line's transaction's current category (the
 * counter accounts of the entry that books it now); other ledgers the counter accounts of the line's own entry.
 */
export async function accountLinePage(
  trx: Knex.Transaction,
  q: { workspaceId: string; accountId: string; register: boolean; day: string; place: number; end: string; take: number },
): Promise<LedgerLineRow[]> {
  const { register } = q;
  return (
    await trx.raw(
      `select l.id, l.entry_date, l.day_seq, l.day_net_before, l.direction, l.amount_cents, l.entry_id, l.transaction_id, e.description, e.source_type,
            -- The account's name by its key for each other line: joined instead, the planner hashed the whole chart once per line (5× the page's time).
            ${register ? `coalesce(${counterOf('(select t.current_entry_id from workspace_transactions t where t.id = l.transaction_id)')}, ${counterOf('l.entry_id')})` : counterOf('l.entry_id')} as counter_account
     from journal_lines l join journal_entries e on e.id = l.entry_id
     where l.workspace_id = ? and l.account_id = ? and (l.entry_date, l.day_seq) >= (?::date, ?) and l.entry_date <= ?
       ${register ? 'and not exists (select 1 from register_hidden_lines h where h.workspace_id = l.workspace_id and h.account_id = l.account_id and h.entry_date = l.entry_date and h.day_seq = l.day_seq)' : ''}
     order by l.entry_date, l.day_seq limit ?`,
      [q.workspaceId, q.accountId, q.day, q.place, q.end, q.take],
    )
  ).rows as LedgerLineRow[];
}

/** Every line of an account between two dates (inclusive), in place order (an account with few lines: Retained Earnings). */
export async function accountLinesBetween(trx: Knex.Transaction, accountId: string, start: string, end: string): Promise<LedgerLineRow[]> {
  return (
    await trx.raw(
      `select l.id, l.entry_date, l.day_seq, l.direction, l.amount_cents, l.entry_id, l.transaction_id, e.description, e.source_type,
            (select string_agg(distinct (select a.name from accounts a where a.id = l2.account_id), ', ') from journal_lines l2
              where l2.entry_id = l.entry_id and l2.account_id <> l.account_id) as counter_account
     from journal_lines l join journal_entries e on e.id = l.entry_id
     where l.account_id = ? and l.entry_date between ?::date and ?::date order by l.entry_date, l.day_seq`,
      [accountId, start, end],
    )
  ).rows as LedgerLineRow[];
}

/** One row per line of every entry of the workspace, reversals included, in date and commit order (the plain-text export). */
export async function allEntryLines(trx: Knex.Transaction): Promise<
  {
    id: string;
    entry_date: string;
    description: string;
    reverses_entry_id: string | null;
    account_id: string;
    direction: 'debit' | 'credit';
    amount_cents: number;
  }[]
> {
  return (
    await trx.raw(
      `select e.id, e.entry_date, e.description, e.reverses_entry_id, l.account_id, l.direction, l.amount_cents
     from journal_entries e join journal_lines l on l.entry_id = e.id order by e.entry_date, e.seq, l.id`,
    )
  ).rows as {
    id: string;
    entry_date: string;
    description: string;
    reverses_entry_id: string | null;
    account_id: string;
    direction: 'debit' | 'credit';
    amount_cents: number;
  }[];
}
