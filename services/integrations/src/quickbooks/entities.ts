// What the QuickBooks sync pushes (pure): the workspace's entities as the owning services answer them, and their
// QuickBooks Online v3 payloads. Types are pushed in dependency order (accounts before the transactions that post
// to them, names before the transactions that name them). Each entity carries a fingerprint of what is pushed,
// so a changed entity is un-synced again and an unchanged one is never pushed twice.
import { createHash } from 'node:crypto';

/** The entity types of spec §3 that exist in our services, in push order. */
export const QB_ENTITY_TYPES = ['account', 'vendor', 'customer', 'transaction'] as const;
export type QbEntityType = (typeof QB_ENTITY_TYPES)[number];

export interface AccountRecord {
  type: 'account';
  id: string;
  name: string;
  coaId: number;
  /** Assets, Liability, Income, Expenses, Transfer, Equity. */
  classGroup: string;
  /** 1–4; levels 1 and 2 are headings. */
  level: number;
  /** Set for bank and card accounts. */
  bankAccountId: string;
}

export interface NameRecord {
  type: 'vendor' | 'customer';
  id: string;
  name: string;
  email: string;
  description: string;
  companyName: string;
  is1099: boolean;
  active: boolean;
}

export interface TransactionRecord {
  type: 'transaction';
  id: string;
  date: string;
  /** Signed: > 0 money into the bank account. */
  amountCents: number;
  memo: string;
  currency: string;
  categoryId: string;
  /** The ledger account of the bank or card account. */
  bankLedgerAccountId: string;
  /** The bank account is a credit card (a liability). */
  card: boolean;
  vendorId: string;
  /** Why this transaction is not pushed (QuickBooks has no such entry here); empty when it is. */
  ignoreReason: string;
}

export type SourceRecord = AccountRecord | NameRecord | TransactionRecord;

/** What the sync does with one entity: push this payload, leave it out (ignored), or fail it (a reference missing). */
export type Plan =
  | { kind: 'push'; qboType: string; body: Record<string, unknown>; key: { field: string; value: string } }
  | { kind: 'ignore'; reason: string }
  | { kind: 'fail'; reason: string };

/** The account's QuickBooks type (QBO's AccountType) from our class group; bank and card accounts by their link. */
export function accountType(a: AccountRecord): string | undefined {
  if (a.bankAccountId) return a.classGroup === 'Liability' ? 'Credit Card' : 'Bank';
  switch (a.classGroup) {
    case 'Assets':
      return 'Other Current Asset';
    case 'Liability':
      return 'Other Current Liability';
    case 'Equity':
      return 'Equity';
    case 'Income':
      return 'Income';
    case 'Expenses':
      return 'Expense';
    default:
      return undefined;
  }
}

/** QBO account names: at most 100 characters, no ':' or '"'. */
export const accountName = (name: string) => name.replace(/[:"]/g, '-').trim().slice(0, 100);
/** QBO display names: at most 500 characters. */
const displayName = (name: string) => name.trim().slice(0, 500);

/** DocNumber of a pushed transaction: derived from our id (QBO allows 21 characters), so a retry finds it. */
export const docNumber = (id: string) => `LL-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;

const money = (cents: number) => Math.abs(cents) / 100;

/** Our ids of the QuickBooks entities already synced, by our type and id. */
export type Refs = (type: QbEntityType, id: string) => string | undefined;

export function plan(record: SourceRecord, refs: Refs): Plan {
  switch (record.type) {
    case 'account': {
      if (record.level < 3) return { kind: 'ignore', reason: 'A heading of the chart, not an account' };
      const type = accountType(record);
      if (!type) return { kind: 'ignore', reason: 'Transfer accounts have no QuickBooks counterpart' };
      const name = accountName(record.name);
      if (!name) return { kind: 'fail', reason: 'The account has no name QuickBooks accepts' };
      return { kind: 'push', qboType: 'Account', key: { field: 'Name', value: name }, body: { Name: name, AccountType: type, AcctNum: String(record.coaId) } };
    }
    case 'vendor':
    case 'customer': {
      const name = displayName(record.name);
      if (!name) return { kind: 'fail', reason: 'The name is empty' };
      const body: Record<string, unknown> = { DisplayName: name, Active: record.active };
      if (record.email) body.PrimaryEmailAddr = { Address: record.email.slice(0, 100) };
      if (record.description) body.Notes = record.description.slice(0, 2000);
      if (record.type === 'vendor') body.Vendor1099 = record.is1099;
      else if (record.companyName) body.CompanyName = record.companyName.slice(0, 100);
      return { kind: 'push', qboType: record.type === 'vendor' ? 'Vendor' : 'Customer', key: { field: 'DisplayName', value: name }, body };
    }
    case 'transaction': {
      if (record.ignoreReason) return { kind: 'ignore', reason: record.ignoreReason };
      if (record.currency && record.currency.toUpperCase() !== 'USD') return { kind: 'ignore', reason: 'Only USD transactions are synced' };
      if (record.amountCents === 0) return { kind: 'ignore', reason: 'A zero amount' };
      const bank = refs('account', record.bankLedgerAccountId);
      if (!bank) return { kind: 'fail', reason: 'Its bank account is not synced to QuickBooks' };
      const category = refs('account', record.categoryId);
      if (!category) return { kind: 'fail', reason: 'Its category is not synced to QuickBooks' };
      const vendor = record.vendorId ? refs('vendor', record.vendorId) : undefined;
      const doc = docNumber(record.id);
      const common = { TxnDate: record.date, DocNumber: doc, PrivateNote: `Ledgerline ${record.id}` };
      const description = record.memo.slice(0, 4000);
      const line = (detailType: string, detail: Record<string, unknown>) => ({
        Amount: money(record.amountCents),
        DetailType: detailType,
        ...(description ? { Description: description } : {}),
        [detailType]: detail,
      });
      const key = { field: 'DocNumber', value: doc };
      if (record.amountCents > 0 && !record.card) {
        // Money into a bank account: a deposit, its line the category (income, a refund of an expense, ...).
        return {
          kind: 'push',
          qboType: 'Deposit',
          key,
          body: { ...common, DepositToAccountRef: { value: bank }, Line: [line('DepositLineDetail', { AccountRef: { value: category } })] },
        };
      }
      // Money out is a purchase (cash from a bank account, a charge on a card); money back on a card is a card
      // credit, which QBO posts to the same accounts the other way.
      return {
        kind: 'push',
        qboType: 'Purchase',
        key,
        body: {
          ...common,
          PaymentType: record.card ? 'CreditCard' : 'Cash',
          AccountRef: { value: bank },
          ...(record.amountCents > 0 ? { Credit: true } : {}),
          ...(vendor ? { EntityRef: { value: vendor, type: 'Vendor' } } : {}),
          Line: [line('AccountBasedExpenseLineDetail', { AccountRef: { value: category } })],
        },
      };
    }
  }
}

/** The fingerprint of what is pushed: a change of it makes the entity un-synced again. */
export function fingerprint(p: Plan): string {
  return createHash('sha256')
    .update(JSON.stringify(p.kind === 'push' ? p.body : p))
    .digest('hex')
    .slice(0, 32);
}
