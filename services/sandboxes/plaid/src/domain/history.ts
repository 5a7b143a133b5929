// Deterministic, lazily generated transaction history of one item. Transaction i is a pure function of
// (seed, institution, username, i) for its content and of the item id for its ids, so an item of 100,000
// transactions is created in O(accounts) and each page is generated when it is read.
//
// Money moving between the item's own accounts comes in pairs of consecutive indices (2p, 2p+1): pair p is
// either two ordinary transactions, or the two legs of one transfer (checking <-> savings) or card payment
// (checking -> card). Leg 2p sends (+X on the paying account), leg 2p+1 receives (-X on the other account),
// dated 0-3 days after the first leg. Whether pair p is a transfer is decided by its own small generator;
// card payments sit at precomputed pairs (one per card per statement period) and pay the card's spending
// over the previous period, summed lazily from the light per-index draw and cached.
import { CITIES, MERCHANTS, TRANSFER_STYLES, type AccountKind, type AccountTemplate, type Merchant, type TransferStyle } from './catalog.js';
import { TransactionIdCodec, derivedBase62 } from './ids.js';
import { Rng, cumulative, hashString, mix } from './prng.js';
import type { Transaction } from './wire.js';

export const DAY_MS = 86_400_000;

export function toDay(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

const dayNames = new Map<number, string>();

export function fromDay(day: number): string {
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayNames.size < 100_000) dayNames.set(day, name);
  }
  return name;
}

export interface HistoryAccount {
  readonly accountId: string;
  readonly template: AccountTemplate;
}

export interface HistoryConfig {
  readonly itemId: string;
  /** The caller's seed; with `contentKey` it fixes the content (dates, amounts, merchants). */
  readonly seed: number;
  /** Institution and sandbox username: the same bank and user give the same history. */
  readonly contentKey: string;
  readonly count: number;
  readonly startDate: string;
  readonly endDate: string;
  /** Card transactions within this many days of `endDate` are still pending. */
  readonly pendingDays: number;
  readonly accounts: readonly HistoryAccount[];
  /** Transfers between the item's accounts and card payments (default true). */
  readonly transfers?: boolean;
}

const merchantsByKind = new Map<AccountKind, { merchants: Merchant[]; weights: number[] }>();
for (const kind of ['checking', 'savings', 'credit'] as const) {
  const merchants = MERCHANTS.filter((m) => m.kinds.includes(kind));
  merchantsByKind.set(kind, { merchants, weights: cumulative(merchants.map((m) => m.weight)) });
}

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Per-merchant values that do not vary between transactions. */
const merchantExtras = new Map<Merchant, { entityId: string | null; logo: string | null; iconUrl: string }>(
  MERCHANTS.map((m) => [
    m,
    {
      entityId: m.merchantName ? derivedBase62(hashString(`entity:${m.merchantName}`), 37) : null,
      logo: m.merchantName ? `https://plaid-merchant-logos.plaid.com/${slug(m.merchantName)}.png` : null,
      iconUrl: `https://plaid-category-icons.plaid.com/PFC_${m.pfcPrimary}.png`,
    },
  ]),
);

const STREETS = ['Market St', 'Mission St', 'Broadway', 'Main St', '2nd Ave', 'Congress Ave', 'Pike St', 'Wacker Dr'];
const NO_PAYMENT_META = {
  reference_number: null,
  ppd_id: null,
  payee: null,
  by_order_of: null,
  payer: null,
  payment_method: null,
  payment_processor: null,
  reason: null,
};
const NO_LOCATION = { address: null, city: null, region: null, postal_code: null, country: null, lat: null, lon: null, store_number: null };

/** Most legs land the same or the next day; a few take up to three days. */
const TRANSFER_LAGS = [0, 0, 0, 0, 0, 1, 1, 1, 2, 3] as const;
const CARD_PAYMENT_LAGS = [0, 0, 1, 1, 2] as const;
/** The largest gap, in days, between a transfer's two legs. */
export const MAX_TRANSFER_LAG_DAYS = 3;

export interface GenerateOverrides {
  accountIndex?: number;
  day?: number;
  pending?: boolean;
}

/** The two legs of pair p: `from` pays `cents` (> 0) on `dayA`, `to` receives it `lag` days later. */
export interface PairPlan {
  readonly from: number;
  readonly to: number;
  readonly cents: number;
  readonly dayA: number;
  readonly dayB: number;
  readonly style: TransferStyle;
}

interface PaymentSlot {
  readonly card: number;
  readonly payer: number;
  /** Index range whose card spending this payment settles. */
  readonly windowFrom: number;
  readonly windowTo: number;
}

/** What the balances need of one transaction (Plaid's sign: positive = money out), in whole cents. */
export interface TransactionSummary {
  accountIndex: number;
  cents: number;
  pending: boolean;
  day: number;
}

/** The generated history's totals per account (before any change made through the controls). */
export interface AccountSummary {
  /** Plaid's `balances.current` before the first generated transaction: money held, or owed on a card. */
  readonly openingCents: number;
  readonly limitCents: number | null;
  /** Sum of the posted (non-pending) generated amounts, Plaid's sign (positive = money out). */
  readonly postedCents: number;
  readonly pendingCents: number;
  readonly postedCount: number;
  readonly pendingCount: number;
}

export class History {
  readonly count: number;
  readonly startDay: number;
  readonly endDay: number;
  readonly pendingFromDay: number;
  readonly contentSeed: number;
  readonly codec: TransactionIdCodec;
  readonly transfers: boolean;
  private readonly accounts: readonly HistoryAccount[];
  private readonly accountWeights: number[];
  private readonly spanDays: number;
  /** Per-pair probability of a checking <-> savings transfer (0 without both kinds of account). */
  private readonly transferChance: number;
  private readonly checkingIdx: number[];
  private readonly savingsIdx: number[];
  private readonly paymentSlots = new Map<number, PaymentSlot>();
  private readonly paymentCents = new Map<number, number>();
  private summaries: AccountSummary[] | undefined;

  constructor(config: HistoryConfig) {
    if (config.accounts.length === 0) throw new Error('an item needs at least one account');
    this.count = config.count;
    this.accounts = config.accounts;
    this.accountWeights = cumulative(config.accounts.map((a) => a.template.weight));
    this.startDay = toDay(config.startDate);
    this.endDay = toDay(config.endDate);
    this.spanDays = Math.max(1, this.endDay - this.startDay + 1);
    this.pendingFromDay = this.endDay - Math.max(0, config.pendingDays) + 1;
    this.contentSeed = mix(config.seed >>> 0, hashString(config.contentKey));
    this.codec = new TransactionIdCodec(config.itemId);
    this.transfers = config.transfers !== false;
    const indicesOf = (kind: AccountKind): number[] => config.accounts.flatMap((a, i) => (a.template.kind === kind ? [i] : []));
    this.checkingIdx = indicesOf('checking');
    this.savingsIdx = indicesOf('savings');
    const creditIdx = indicesOf('credit');
    const pairsPerMonth = ((this.count / 2) * 30) / this.spanDays;
    // "Occasional": about two a month in a busy history, never more than 4% of the pairs.
    this.transferChance = this.transfers && this.checkingIdx.length > 0 && this.savingsIdx.length > 0 ? Math.min(0.04, 2 / Math.max(1, pairsPerMonth)) : 0;
    if (this.transfers && this.checkingIdx.length > 0 && creditIdx.length > 0 && this.count >= 2) this.planCardPayments(creditIdx);
  }

  /** Day (epoch days) of index i's slot: non-decreasing in i, spread over the whole range. */
  dayOf(index: number): number {
    return this.startDay + Math.floor((index * this.spanDays) / Math.max(1, this.count));
  }

  /** The first index whose slot day is on or after `day` (count if none). */
  firstIndexOnOrAfter(day: number): number {
    const k = day - this.startDay;
    if (k <= 0) return 0;
    return Math.min(this.count, Math.floor((k * this.count + this.spanDays - 1) / this.spanDays));
  }

  idOf(index: number): string {
    return this.codec.encode(index);
  }

  /** The index of a base transaction id, or undefined for any other id. */
  indexOf(transactionId: string): number | undefined {
    const index = this.codec.decode(transactionId);
    return index !== undefined && index < this.count ? index : undefined;
  }

  /** The transfer or card payment that pair p (indices 2p, 2p+1) holds, or undefined for two ordinary transactions. */
  pairPlan(pair: number): PairPlan | undefined {
    if (2 * pair + 1 >= this.count) return undefined;
    const slot = this.paymentSlots.get(pair);
    if (slot) {
      const cents = this.paymentFor(pair, slot);
      if (cents <= 0) return undefined;
      const rng = new Rng(mix(this.contentSeed ^ 0x63617264, pair));
      const style = rng.chance(0.7) ? TRANSFER_STYLES.cardAutopay : TRANSFER_STYLES.cardPayment;
      const dayA = this.dayOf(2 * pair);
      return { from: slot.payer, to: slot.card, cents, dayA, dayB: Math.min(this.endDay, dayA + rng.pick(CARD_PAYMENT_LAGS)), style };
    }
    if (this.transferChance === 0) return undefined;
    const rng = new Rng(mix(this.contentSeed ^ 0x7472616e, pair));
    if (!rng.chance(this.transferChance)) return undefined;
    const checking = rng.pick(this.checkingIdx);
    const savings = rng.pick(this.savingsIdx);
    const toSavings = rng.chance(0.65);
    // Round amounts, as people move money: $500-$25,000 in, $500-$20,000 back.
    const cents = toSavings ? rng.int(10, 500) * 5_000 : rng.int(5, 200) * 10_000;
    const dayA = this.dayOf(2 * pair);
    const dayB = Math.min(this.endDay, dayA + rng.pick(TRANSFER_LAGS));
    return toSavings
      ? { from: checking, to: savings, cents, dayA, dayB, style: TRANSFER_STYLES.checkingToSavings }
      : { from: savings, to: checking, cents, dayA, dayB, style: TRANSFER_STYLES.savingsToChecking };
  }

  /** Base transaction i as first reported (before any later modification). */
  transactionAt(index: number): Transaction {
    const id = this.idOf(index);
    const plan = this.planOf(index);
    if (plan) return this.leg(plan, (index & 1) === 0, id);
    const rng = new Rng(mix(this.contentSeed, index));
    return this.generate(rng, id, { day: this.dayOf(index) });
  }

  /** Account, amount, pending and day of base transaction i, without building it (same draws as transactionAt). */
  summaryAt(index: number): TransactionSummary {
    const plan = this.planOf(index);
    if (plan) {
      const out = (index & 1) === 0;
      return { accountIndex: out ? plan.from : plan.to, cents: out ? plan.cents : -plan.cents, pending: false, day: out ? plan.dayA : plan.dayB };
    }
    const draw = this.draw(new Rng(mix(this.contentSeed, index)), { day: this.dayOf(index) });
    return { accountIndex: draw.accountIndex, cents: draw.merchant.inflow ? -draw.cents : draw.cents, pending: draw.pending, day: draw.day };
  }

  /** A transaction added after the item was created (`sequence` counts the item's additions). */
  extraTransaction(sequence: number, overrides: GenerateOverrides): Transaction {
    const rng = new Rng(mix(this.contentSeed ^ 0x5eed5eed, sequence));
    const id = derivedBase62(mix(hashString(this.codec.prefix), 0x40000000 + sequence), 37);
    return this.generate(rng, id, { day: this.endDay, ...overrides });
  }

  accountIndexOf(accountId: string): number {
    return this.accounts.findIndex((a) => a.accountId === accountId);
  }

  /**
   * Opening balance, limit and totals of every account, computed on first use (one light pass over the
   * history, ~50 ms at 100,000) and cached. The opening is a plausible balance (money held, or a modest
   * amount owed on a card) raised where needed so that no depository account's end-of-day posted balance
   * goes below zero and no card's balance owed goes below zero over the generated range; a card's limit
   * covers its highest balance owed with room to spare.
   */
  accountSummaries(): readonly AccountSummary[] {
    if (this.summaries) return this.summaries;
    const n = this.accounts.length;
    const days = this.spanDays + MAX_TRANSFER_LAG_DAYS + 1;
    const perDay = Array.from({ length: n }, () => new Float64Array(days));
    const posted = new Array<number>(n).fill(0);
    const pending = new Array<number>(n).fill(0);
    const postedCount = new Array<number>(n).fill(0);
    const pendingCount = new Array<number>(n).fill(0);
    for (let i = 0; i < this.count; i++) {
      const t = this.summaryAt(i);
      if (t.pending) {
        pending[t.accountIndex] = (pending[t.accountIndex] ?? 0) + t.cents;
        pendingCount[t.accountIndex] = (pendingCount[t.accountIndex] ?? 0) + 1;
        continue;
      }
      posted[t.accountIndex] = (posted[t.accountIndex] ?? 0) + t.cents;
      postedCount[t.accountIndex] = (postedCount[t.accountIndex] ?? 0) + 1;
      const bucket = perDay[t.accountIndex];
      const slot = Math.min(days - 1, Math.max(0, t.day - this.startDay));
      if (bucket) bucket[slot] = (bucket[slot] ?? 0) + t.cents;
    }
    this.summaries = this.accounts.map(({ template }, a) => {
      // Running posted total at each day's end, Plaid's sign: its lowest and highest points.
      let running = 0;
      let low = 0;
      let high = 0;
      for (const cents of perDay[a] ?? []) {
        running += cents;
        low = Math.min(low, running);
        high = Math.max(high, running);
      }
      const rng = new Rng(mix(this.contentSeed, hashString(template.key)));
      const totals = { postedCents: posted[a] ?? 0, pendingCents: pending[a] ?? 0, postedCount: postedCount[a] ?? 0, pendingCount: pendingCount[a] ?? 0 };
      if (template.kind === 'credit') {
        // Owed = opening + running: keep it >= 0, a few hundred to a few thousand dollars to start with.
        const openingCents = Math.max(rng.int(500, 4_000) * 100, -low + rng.int(0, 500) * 100);
        const highestOwed = openingCents + high + Math.max(0, totals.pendingCents);
        const limitCents = Math.max(rng.int(10, 50) * 100_000, Math.ceil((highestOwed * 1.25) / 500_000) * 500_000);
        return { openingCents, limitCents, ...totals };
      }
      // Held = opening - running (money out lowers it): keep it >= a small cushion at every day's end.
      const usual = template.kind === 'savings' ? rng.int(1_000_000, 50_000_000) : rng.int(2_000_000, 25_000_000);
      const openingCents = Math.max(usual, high + rng.int(1_000, 10_000) * 100);
      return { openingCents, limitCents: null, ...totals };
    });
    return this.summaries;
  }

  private planOf(index: number): PairPlan | undefined {
    if (this.paymentSlots.size === 0 && this.transferChance === 0) return undefined;
    return this.pairPlan(index >> 1);
  }

  /**
   * One payment per card per statement period (monthly, or every few months in a sparse history so that
   * payments stay a small share of it), due on the same day of the month; the card's n-th payment sits
   * on the first free pair on or after its due date.
   */
  private planCardPayments(creditIdx: readonly number[]): void {
    const rng = new Rng(mix(this.contentSeed, 0x64756564));
    const dueDayOfMonth = rng.int(1, 28);
    const months = this.spanDays / 30.44;
    const period = Math.max(1, Math.ceil((20 * creditIdx.length * months) / Math.max(1, this.count)));
    const start = new Date(this.startDay * DAY_MS);
    const payer = this.checkingIdx[0] ?? 0;
    let previousDue: number | undefined;
    for (let m = start.getUTCFullYear() * 12 + start.getUTCMonth(); ; m++) {
      if (m % period !== 0) continue;
      const due = Math.floor(Date.UTC(Math.floor(m / 12), m % 12, dueDayOfMonth) / DAY_MS);
      if (due >= this.endDay) break;
      if (due < this.startDay + 7) {
        previousDue = due;
        continue;
      }
      const windowTo = this.firstIndexOnOrAfter(due);
      const windowFrom = this.firstIndexOnOrAfter(previousDue ?? this.startDay);
      previousDue = due;
      let pair = Math.ceil(windowTo / 2);
      for (const card of creditIdx) {
        while (this.paymentSlots.has(pair)) pair++;
        if (2 * pair + 1 >= this.count) return;
        this.paymentSlots.set(pair, { card, payer, windowFrom, windowTo });
        pair++;
      }
    }
  }

  /** A card payment's amount: the card's posted spending (purchases less refunds) over its window, cached. */
  private paymentFor(pair: number, slot: PaymentSlot): number {
    const cached = this.paymentCents.get(pair);
    if (cached !== undefined) return cached;
    let cents = 0;
    for (let i = slot.windowFrom; i < slot.windowTo; i++) {
      const p = i >> 1;
      // Other transfers and payments are not spending (their slots count as such whatever their amount).
      if (this.paymentSlots.has(p) || this.isTransferPair(p)) continue;
      const draw = this.draw(new Rng(mix(this.contentSeed, i)), { day: this.dayOf(i) });
      if (draw.accountIndex === slot.card && !draw.pending) cents += draw.merchant.inflow ? -draw.cents : draw.cents;
    }
    this.paymentCents.set(pair, cents);
    return cents;
  }

  private isTransferPair(pair: number): boolean {
    if (this.transferChance === 0 || 2 * pair + 1 >= this.count) return false;
    return new Rng(mix(this.contentSeed ^ 0x7472616e, pair)).chance(this.transferChance);
  }

  private leg(plan: PairPlan, out: boolean, transactionId: string): Transaction {
    const account = this.accounts[out ? plan.from : plan.to];
    const other = this.accounts[out ? plan.to : plan.from];
    if (!account || !other) throw new Error('transfer between unknown accounts');
    const { style } = plan;
    const day = out ? plan.dayA : plan.dayB;
    const primary = out ? style.outPrimary : style.inPrimary;
    return {
      account_id: account.accountId,
      account_owner: null,
      amount: (out ? plan.cents : -plan.cents) / 100,
      authorized_date: fromDay(day),
      authorized_datetime: null,
      category: [...style.legacyCategory],
      category_id: style.legacyCategoryId,
      check_number: null,
      counterparties: [],
      date: fromDay(day),
      datetime: null,
      iso_currency_code: 'USD',
      location: { ...NO_LOCATION },
      logo_url: null,
      merchant_entity_id: null,
      merchant_name: null,
      name: (out ? style.outName : style.inName).replace('{mask}', other.template.mask),
      original_description: null,
      payment_channel: style.channel,
      payment_meta: { ...NO_PAYMENT_META },
      pending: false,
      pending_transaction_id: null,
      personal_finance_category: { primary, detailed: out ? style.outPfc : style.inPfc, confidence_level: 'VERY_HIGH' },
      personal_finance_category_icon_url: `https://plaid-category-icons.plaid.com/PFC_${primary}.png`,
      transaction_code: style.transactionCode,
      transaction_id: transactionId,
      transaction_type: 'special',
      unofficial_currency_code: null,
      website: null,
    };
  }

  /** The first draws of a generated transaction: enough for its account, amount and pending state. */
  private draw(
    rng: Rng,
    overrides: GenerateOverrides,
  ): { accountIndex: number; account: HistoryAccount; merchant: Merchant; cents: number; day: number; pending: boolean; cardLike: boolean } {
    const pickedIndex = rng.weightedIndex(this.accountWeights);
    const accountIndex = overrides.accountIndex !== undefined && this.accounts[overrides.accountIndex] ? overrides.accountIndex : pickedIndex;
    const account = this.accounts[accountIndex];
    if (!account) throw new Error('no account');
    const pool = merchantsByKind.get(account.template.kind);
    if (!pool || pool.merchants.length === 0) throw new Error(`no merchants for ${account.template.kind}`);
    const merchant = rng.weighted(pool.merchants, pool.weights);
    const day = overrides.day ?? this.endDay;
    const logMin = Math.log(merchant.minCents);
    const logMax = Math.log(merchant.maxCents);
    const cents = Math.max(1, Math.round(Math.exp(logMin + rng.next() * (logMax - logMin))));
    const cardLike = merchant.channel !== 'other' && account.template.kind !== 'savings';
    const pending = overrides.pending ?? (cardLike && day >= this.pendingFromDay);
    return { accountIndex, account, merchant, cents, day, pending, cardLike };
  }

  private generate(rng: Rng, transactionId: string, overrides: GenerateOverrides): Transaction {
    const { account, merchant, cents, day, pending, cardLike } = this.draw(rng, overrides);
    const amount = (merchant.inflow ? -cents : cents) / 100;
    const authorizedLag = pending || !cardLike ? 0 : rng.int(0, 2);
    const inStore = merchant.channel === 'in store';
    const city = inStore ? rng.pick(CITIES) : undefined;
    const streetNumber = rng.int(1, 2999);
    const street = rng.pick(STREETS);
    const storeNumber = rng.int(100, 9999);
    const extras = merchantExtras.get(merchant);
    const entityId = extras?.entityId ?? null;
    const logo = extras?.logo ?? null;
    return {
      account_id: account.accountId,
      account_owner: null,
      amount,
      authorized_date: fromDay(day - authorizedLag),
      authorized_datetime: null,
      category: [...merchant.legacyCategory],
      category_id: merchant.legacyCategoryId,
      check_number: null,
      counterparties:
        merchant.merchantName && merchant.counterparty
          ? [
              {
                name: merchant.merchantName,
                type: merchant.counterparty,
                website: merchant.website,
                logo_url: logo,
                entity_id: entityId,
                confidence_level: 'VERY_HIGH',
              },
            ]
          : [],
      date: fromDay(day),
      datetime: null,
      iso_currency_code: 'USD',
      location: {
        address: city ? `${streetNumber} ${street}` : null,
        city: city?.city ?? null,
        region: city?.region ?? null,
        postal_code: city?.postalCode ?? null,
        country: city ? 'US' : null,
        lat: city?.lat ?? null,
        lon: city?.lon ?? null,
        store_number: city ? String(storeNumber) : null,
      },
      logo_url: logo,
      merchant_entity_id: entityId,
      merchant_name: merchant.merchantName,
      name: merchant.descriptor,
      original_description: null,
      payment_channel: merchant.channel,
      payment_meta: { ...NO_PAYMENT_META },
      pending,
      pending_transaction_id: null,
      personal_finance_category: { primary: merchant.pfcPrimary, detailed: merchant.pfcDetailed, confidence_level: 'VERY_HIGH' },
      personal_finance_category_icon_url: extras?.iconUrl ?? '',
      transaction_code: merchant.transactionCode,
      transaction_id: transactionId,
      transaction_type: merchant.type,
      unofficial_currency_code: null,
      website: merchant.website,
    };
  }

  /** Whether the merchant of this transaction adds a tip when it posts (restaurants). */
  static tipsOnPosting(txn: Transaction): boolean {
    return txn.personal_finance_category?.detailed === 'FOOD_AND_DRINK_RESTAURANT';
  }
}
