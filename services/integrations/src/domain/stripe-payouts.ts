// Gross-to-net of Stripe payouts and their reconciliation with the bank (issue #20 item 5; decision 0043). Pure.
//
// A payout is made of balance transactions (Stripe's `GET /v1/balance_transactions?payout=`). Each is one of the
// spec's item types: charge, refund, adjustment, stripe_fee, and the payout's own. The payout's amount is the sum of
// the others' net, so  gross − fees − refunds + adjustments = payout amount  (amounts in minor units).

export interface BalanceTxnLike {
  id: string;
  type: string;
  amount: number;
  fee: number;
  net: number;
  created: number;
}

/** The spec's item types (documents-parties-integrations §3): what each balance transaction counts as. */
export type PayoutItemType = 'payout' | 'charge' | 'refund' | 'adjustment' | 'stripe_fee';

export function itemTypeOf(type: string): PayoutItemType {
  switch (type) {
    case 'charge':
    case 'payment':
      return 'charge';
    case 'refund':
    case 'payment_refund':
    case 'payment_failure_refund':
      return 'refund';
    case 'stripe_fee':
    case 'tax_fee':
      return 'stripe_fee';
    case 'payout':
      return 'payout';
    default:
      return 'adjustment';
  }
}

export interface PayoutComposition {
  /** Charges before fees. */
  gross: number;
  /** Stripe's fees on charges and refunds, and stripe_fee items (e.g. Radar, Billing). */
  fees: number;
  /** Money returned to customers (positive). */
  refunds: number;
  /** Disputes, reserves and other adjustments, signed (their net). */
  adjustments: number;
  /** gross − fees − refunds + adjustments: what the payout carries to the bank. */
  net: number;
}

/** The gross-to-net of a payout from its balance transactions (its own `payout` transaction is left out). */
export function composePayout(members: BalanceTxnLike[]): PayoutComposition {
  let gross = 0;
  let fees = 0;
  let refunds = 0;
  let adjustments = 0;
  for (const t of members) {
    switch (itemTypeOf(t.type)) {
      case 'charge':
        gross += t.amount;
        fees += t.fee;
        break;
      case 'refund':
        refunds -= t.amount;
        fees += t.fee;
        break;
      case 'stripe_fee':
        fees -= t.net;
        break;
      case 'adjustment':
        adjustments += t.net;
        break;
      case 'payout':
        break;
    }
  }
  return { gross, fees, refunds, adjustments, net: gross - fees - refunds + adjustments };
}

/** A deposit in a linked bank account that may be a payout landing: amount positive, in minor units. */
export interface BankDepositLike {
  transactionId: string;
  /** YYYY-MM-DD, the bank's posting date. */
  date: string;
  amountCents: number;
  description?: string;
}

export interface PayoutToMatch {
  payoutId: string;
  amountCents: number;
  /** YYYY-MM-DD: Stripe's expected arrival date. */
  arrivalDate: string;
}

/** The card-payout link of the spec: a payout and the bank transaction it became. */
export interface CardPayoutLink {
  transactionId: string;
  payoutId: string;
}

/** A bank may post a payout a day before Stripe's arrival date or up to this many days after it. */
export const MATCH_DAYS_BEFORE = 1;
export const MATCH_DAYS_AFTER = 4;

const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

/**
 * Matches payouts to bank deposits: the same amount, posted within [arrival − 1 day, arrival + 4 days]; each deposit
 * and each payout at most once; payouts in arrival order, each taking the candidate closest to its arrival date
 * (a description naming Stripe first, then the earlier date, then the transaction id), so the answer does not
 * depend on the order of the inputs. Deposits already linked are passed in `taken`.
 */
export function matchPayouts(payouts: PayoutToMatch[], deposits: BankDepositLike[], taken: ReadonlySet<string> = new Set()): CardPayoutLink[] {
  const used = new Set(taken);
  const byAmount = new Map<number, BankDepositLike[]>();
  for (const d of deposits) {
    if (used.has(d.transactionId) || d.amountCents <= 0) continue;
    const list = byAmount.get(d.amountCents) ?? [];
    list.push(d);
    byAmount.set(d.amountCents, list);
  }
  const ordered = [...payouts].sort((a, b) => (a.arrivalDate < b.arrivalDate ? -1 : a.arrivalDate > b.arrivalDate ? 1 : a.payoutId < b.payoutId ? -1 : 1));
  const links: CardPayoutLink[] = [];
  for (const p of ordered) {
    const arrival = dayNumber(p.arrivalDate);
    const candidates = (byAmount.get(p.amountCents) ?? []).filter((d) => {
      const offset = dayNumber(d.date) - arrival;
      return !used.has(d.transactionId) && offset >= -MATCH_DAYS_BEFORE && offset <= MATCH_DAYS_AFTER;
    });
    if (candidates.length === 0) continue;
    const stripeNamed = (d: BankDepositLike) => (/stripe/i.test(d.description ?? '') ? 0 : 1);
    candidates.sort(
      (a, b) =>
        stripeNamed(a) - stripeNamed(b) ||
        Math.abs(dayNumber(a.date) - arrival) - Math.abs(dayNumber(b.date) - arrival) ||
        a.date.localeCompare(b.date) ||
        a.transactionId.localeCompare(b.transactionId),
    );
    const chosen = candidates[0]!;
    used.add(chosen.transactionId);
    links.push({ transactionId: chosen.transactionId, payoutId: p.payoutId });
  }
  return links;
}

/** The accounts a payout's booking touches (the ledger maps each to the workspace's chart). */
export type PayoutAccount = 'stripe_clearing' | 'revenue' | 'stripe_fees' | 'refunds' | 'adjustments' | 'bank';

/** One journal line: debit positive, credit negative, minor units. */
export interface PayoutJournalLine {
  account: PayoutAccount;
  amountCents: number;
  memo: string;
}

/**
 * The booking of a matched payout: revenue gross (credit), Stripe's fees as an expense (debit), refunds against
 * revenue (debit), adjustments signed, each against the Stripe clearing account; and the bank deposit taking the
 * payout out of clearing. The entry balances, and the clearing account nets to zero for the payout.
 */
export function payoutJournal(payoutId: string, c: PayoutComposition): PayoutJournalLine[] {
  const lines: PayoutJournalLine[] = [];
  const pair = (account: PayoutAccount, amount: number, memo: string) => {
    if (amount === 0) return;
    lines.push({ account, amountCents: amount, memo }, { account: 'stripe_clearing', amountCents: -amount, memo });
  };
  pair('revenue', -c.gross, `Stripe charges in payout ${payoutId}`);
  pair('stripe_fees', c.fees, `Stripe fees in payout ${payoutId}`);
  pair('refunds', c.refunds, `Stripe refunds in payout ${payoutId}`);
  pair('adjustments', -c.adjustments, `Stripe adjustments in payout ${payoutId}`);
  pair('bank', c.net, `Stripe payout ${payoutId}`);
  return lines;
}
