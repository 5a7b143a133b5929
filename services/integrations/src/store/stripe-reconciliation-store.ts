// SQL of payout reconciliation (decision 0043). Every function runs in the caller's tenant transaction.
import type { Knex } from '@ledgerline/platform';
import type { BankDepositLike, CardPayoutLink, PayoutToMatch } from '../domain/stripe-payouts.js';

export interface DepositState {
  transactionId: string;
  accountId: string;
  date: string;
  amountCents: number;
  description: string;
  pending: boolean;
  removed: boolean;
  version: number;
}

export const bankDeposits = {
  /** Keeps the newest state of a bank transaction (an older version is a no-op); answers whether it changed. */
  async upsert(trx: Knex.Transaction, workspaceId: string, d: DepositState): Promise<boolean> {
    const result = await trx.raw(
      `insert into stripe_bank_deposits (workspace_id, transaction_id, account_id, date, amount_cents, description, pending, removed, version)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (workspace_id, transaction_id) do update
         set account_id = excluded.account_id, date = excluded.date, amount_cents = excluded.amount_cents,
             description = excluded.description, pending = excluded.pending, removed = excluded.removed, version = excluded.version
         where stripe_bank_deposits.version < excluded.version`,
      [workspaceId, d.transactionId, d.accountId, d.date, d.amountCents, d.description.slice(0, 500), d.pending, d.removed, d.version],
    );
    return (result as { rowCount: number }).rowCount > 0;
  },
  /** A deposit the bank withdrew or turned into money out: kept as removed (an older version is a no-op). */
  async retire(trx: Knex.Transaction, transactionId: string, version: number): Promise<boolean> {
    const n = await trx('stripe_bank_deposits').where({ transaction_id: transactionId }).andWhere('version', '<', version).update({ removed: true, version });
    return n > 0;
  },
  /** Posted, live deposits of these amounts not linked to a payout. */
  async unlinked(trx: Knex.Transaction, amounts: number[]): Promise<BankDepositLike[]> {
    if (amounts.length === 0) return [];
    const rows = await trx('stripe_bank_deposits as d')
      .where({ 'd.pending': false, 'd.removed': false })
      .whereIn('d.amount_cents', amounts)
      .whereNotExists((q) =>
        q.select(trx.raw('1')).from('stripe_payout_links as l').whereRaw('l.workspace_id = d.workspace_id and l.transaction_id = d.transaction_id'),
      )
      .select('d.transaction_id', 'd.date', 'd.amount_cents', 'd.description');
    return rows.map((r: { transaction_id: string; date: string; amount_cents: string; description: string }) => ({
      transactionId: r.transaction_id,
      date: r.date,
      amountCents: Number(r.amount_cents),
      description: r.description,
    }));
  },
};

export const payoutLinks = {
  /** Paid payouts of the connection with no link yet. */
  async unlinkedPaid(trx: Knex.Transaction, connectionId: string): Promise<PayoutToMatch[]> {
    const rows = await trx('stripe_objects as o')
      .where({ 'o.connection_id': connectionId, 'o.object_type': 'payout' })
      .whereRaw(`o.payload->>'status' = 'paid'`)
      .whereNotExists((q) =>
        q.select(trx.raw('1')).from('stripe_payout_links as l').whereRaw('l.connection_id = o.connection_id and l.payout_id = o.stripe_id'),
      )
      .select('o.stripe_id', trx.raw(`(o.payload->>'amount')::bigint as amount`), trx.raw(`(o.payload->>'arrival_date')::bigint as arrival`));
    return rows.map((r: { stripe_id: string; amount: string; arrival: string }) => ({
      payoutId: r.stripe_id,
      amountCents: Number(r.amount),
      arrivalDate: new Date(Number(r.arrival) * 1000).toISOString().slice(0, 10),
    }));
  },
  /** Records links; one already there (the same payout or deposit) is left as it is. Answers those written. */
  async insert(
    trx: Knex.Transaction,
    connection: { id: string; workspace_id: string },
    links: Array<CardPayoutLink & { amountCents: number }>,
  ): Promise<CardPayoutLink[]> {
    if (links.length === 0) return [];
    const rows = await trx('stripe_payout_links')
      .insert(
        links.map((l) => ({
          connection_id: connection.id,
          workspace_id: connection.workspace_id,
          payout_id: l.payoutId,
          transaction_id: l.transactionId,
          amount_cents: l.amountCents,
        })),
      )
      .onConflict()
      .ignore()
      .returning(['payout_id', 'transaction_id']);
    return rows.map((r: { payout_id: string; transaction_id: string }) => ({ payoutId: r.payout_id, transactionId: r.transaction_id }));
  },
  /** The bank transaction each of these payouts is linked to. */
  async ofPayouts(trx: Knex.Transaction, connectionId: string, payoutIds: string[]): Promise<Map<string, string>> {
    if (payoutIds.length === 0) return new Map();
    const rows = await trx('stripe_payout_links').where({ connection_id: connectionId }).whereIn('payout_id', payoutIds).select('payout_id', 'transaction_id');
    return new Map(rows.map((r: { payout_id: string; transaction_id: string }) => [r.payout_id, r.transaction_id]));
  },
  /** Links whose deposit was withdrawn by the bank or changed amount: undone so the payout is matched again. */
  async dropStale(trx: Knex.Transaction): Promise<number> {
    return trx('stripe_payout_links as l')
      .whereExists((q) =>
        q
          .select(trx.raw('1'))
          .from('stripe_bank_deposits as d')
          .whereRaw('d.workspace_id = l.workspace_id and d.transaction_id = l.transaction_id')
          .andWhere((w) => w.where('d.removed', true).orWhere('d.pending', true).orWhereRaw('d.amount_cents <> l.amount_cents')),
      )
      .delete();
  },
};
