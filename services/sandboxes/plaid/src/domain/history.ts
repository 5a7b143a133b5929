// Deterministic, lazily generated transaction history of one item. Transaction i is a pure function of
// (seed, institution, username, i) for its content and of the item id for its ids, so an item of 100,000
// transactions is created in O(accounts) and each page is generated when it is read.
import { CITIES, MERCHANTS, type AccountKind, type AccountTemplate, type Merchant } from './catalog.js';
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
}

const merchantsByKind = new Map<AccountKind, { merchants: Merchant[]; weights: number[] }>();
for (const kind of ['checking', 'savings', 'credit'] as const) {
  const merchants = MERCHANTS.filter((m) => m.kinds.includes(kind));
  merchantsByKind.set(kind, { merchants, weights: cumulative(merchants.map((m) => m.weight)) });
}

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

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

export interface GenerateOverrides {
  accountIndex?: number;
  day?: number;
  pending?: boolean;
}

export class History {
  readonly count: number;
  readonly startDay: number;
  readonly endDay: number;
  readonly pendingFromDay: number;
  readonly contentSeed: number;
  readonly codec: TransactionIdCodec;
  private readonly accounts: readonly HistoryAccount[];
  private readonly accountWeights: number[];
  private readonly spanDays: number;

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
  }

  /** Day (epoch days) of base transaction i: non-decreasing in i, spread over the whole range. */
  dayOf(index: number): number {
    return this.startDay + Math.floor((index * this.spanDays) / Math.max(1, this.count));
  }

  idOf(index: number): string {
    return this.codec.encode(index);
  }

  /** The index of a base transaction id, or undefined for any other id. */
  indexOf(transactionId: string): number | undefined {
    const index = this.codec.decode(transactionId);
    return index !== undefined && index < this.count ? index : undefined;
  }

  /** Base transaction i as first reported (before any later modification). */
  transactionAt(index: number): Transaction {
    const rng = new Rng(mix(this.contentSeed, index));
    const day = this.dayOf(index);
    return this.generate(rng, this.idOf(index), { day });
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

  private generate(rng: Rng, transactionId: string, overrides: GenerateOverrides): Transaction {
    const pickedAccount = rng.weighted(this.accounts, this.accountWeights);
    const account = overrides.accountIndex !== undefined ? (this.accounts[overrides.accountIndex] ?? pickedAccount) : pickedAccount;
    const pool = merchantsByKind.get(account.template.kind);
    if (!pool || pool.merchants.length === 0) throw new Error(`no merchants for ${account.template.kind}`);
    const merchant = rng.weighted(pool.merchants, pool.weights);
    const day = overrides.day ?? this.endDay;
    const logMin = Math.log(merchant.minCents);
    const logMax = Math.log(merchant.maxCents);
    const cents = Math.max(1, Math.round(Math.exp(logMin + rng.next() * (logMax - logMin))));
    const amount = (merchant.inflow ? -cents : cents) / 100;
    const cardLike = merchant.channel !== 'other' && account.template.kind !== 'savings';
    const pending = overrides.pending ?? (cardLike && day >= this.pendingFromDay);
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
          ? [{ name: merchant.merchantName, type: merchant.counterparty, website: merchant.website, logo_url: logo, entity_id: entityId, confidence_level: 'VERY_HIGH' }]
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
      payment_meta: { reference_number: null, ppd_id: null, payee: null, by_order_of: null, payer: null, payment_method: null, payment_processor: null, reason: null },
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
