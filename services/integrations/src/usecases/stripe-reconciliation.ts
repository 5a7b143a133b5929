// Payout reconciliation (issue #20 item 5; decision 0043): each paid Stripe payout is linked to the deposit it became
// in a linked bank account (the spec's card-payout link: transactionId, payoutId). Runs in the caller's tenant
// transaction: after a bank transaction arrives, and when a Stripe sync completes. Idempotent: a payout or a deposit
// is linked at most once (the primary key and the unique index), so a rerun links only what is new.
import type { Knex } from '@ledgerline/platform';
import { matchPayouts, type CardPayoutLink } from '../domain/stripe-payouts.js';
import { connections } from '../store/stripe-store.js';
import { bankDeposits, payoutLinks } from '../store/stripe-reconciliation-store.js';

export async function reconcilePayouts(trx: Knex.Transaction): Promise<CardPayoutLink[]> {
  const connection = await connections.ofWorkspace(trx);
  if (!connection) return [];
  await payoutLinks.dropStale(trx);
  const payouts = await payoutLinks.unlinkedPaid(trx, connection.id);
  if (payouts.length === 0) return [];
  const deposits = await bankDeposits.unlinked(trx, [...new Set(payouts.map((p) => p.amountCents))]);
  const links = matchPayouts(payouts, deposits);
  const amount = new Map(payouts.map((p) => [p.payoutId, p.amountCents]));
  return payoutLinks.insert(
    trx,
    connection,
    links.map((l) => ({ ...l, amountCents: amount.get(l.payoutId)! })),
  );
}
