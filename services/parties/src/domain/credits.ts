import { dateMessage, isBusinessDate, isUuid, MAX_CENTS } from '@ledgerline/platform';
import { MSG, type FieldProblem } from './parties.js';

/**
 * Vendor credits and credit memos (spec §3 "Vendor credit", §5 "Payment to vendor or from customer"; issue #17
 * item 5). One shape for both: a vendor credit names a vendor, a credit memo a customer and a reference number.
 */
export type CreditKind = 'vendor_credit' | 'credit_memo';

export const CREDIT_KINDS: Record<
  CreditKind,
  { partyField: 'vendorId' | 'customerId'; party: 'Vendor' | 'Customer'; sourceType: 'VendorCredit' | 'CreditMemo'; what: string; label: string }
> = {
  vendor_credit: { partyField: 'vendorId', party: 'Vendor', sourceType: 'VendorCredit', what: 'Vendor credit', label: 'vendor credit' },
  credit_memo: { partyField: 'customerId', party: 'Customer', sourceType: 'CreditMemo', what: 'Credit memo', label: 'credit memo' },
};

/** Limits: spec §5 (reference number 100); ours for the rest. */
export const CREDIT_LIMITS = { description: 1000, refNo: 100, lineDescription: 1000, lineItems: 500 } as const;

export const CREDIT_MSG = {
  dateRequired: 'paymentDate is required',
  dateFormat: dateMessage('paymentDate'),
  partyRequired: (kind: CreditKind) => `${CREDIT_KINDS[kind].party} is required`,
  lineItemsRequired: 'At least one line item is required',
  tooManyLines: `A credit holds at most ${CREDIT_LIMITS.lineItems} line items`,
  categoryRequired: (i: number) => `Line Item ${i + 1}: category is required`,
  categoryUuid: (i: number) => `Line Item ${i + 1}: categoryId must be a UUID`,
  amount: (i: number) => `Line Item ${i + 1}: amount must be greater than 0`,
  lineDescription: (i: number) => `Line Item ${i + 1}: description must be at most ${CREDIT_LIMITS.lineDescription} characters`,
  totalTooLarge: 'The total of the line items must be less than 10000000000000',
  notFound: (kind: CreditKind) => `${CREDIT_KINDS[kind].what} not found`,
} as const;

export interface CreditLineInput {
  description?: string;
  categoryId?: string;
  amountCents?: bigint | number;
}

/** What a create or update sends; on update only what is present changes (`lineItems` undefined: kept). */
export interface CreditInput {
  paymentDate?: string;
  partyId?: string;
  description?: string;
  refNo?: string;
  lineItems?: CreditLineInput[];
}

export interface CleanLine {
  description: string;
  categoryId: string;
  amountCents: number;
}

export interface CleanCredit {
  paymentDate?: string;
  partyId?: string;
  description?: string;
  refNo?: string;
  lineItems?: CleanLine[];
}

const toCents = (v: bigint | number | undefined): number => (v === undefined ? 0 : typeof v === 'bigint' ? (v > MAX_CENTS ? Number.NaN : Number(v)) : v);

/**
 * The fields' rules, every problem at once, each naming its REST field (`paymentDate`, `vendorId` / `customerId`,
 * `refNo`, `lineItems`, `lineItems.N.categoryId`, `lineItems.N.amount`). Creating needs the date, the party and at
 * least one line item; updating checks only what it sends. Empty optional text is absent (spec §5).
 */
export function cleanCredit(kind: CreditKind, input: CreditInput, creating: boolean): { value: CleanCredit; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  const value: CleanCredit = {};
  const partyField = CREDIT_KINDS[kind].partyField;

  if (input.paymentDate !== undefined || creating) {
    const date = (input.paymentDate ?? '').trim();
    if (date === '') add('paymentDate', CREDIT_MSG.dateRequired);
    else if (!isBusinessDate(date)) add('paymentDate', CREDIT_MSG.dateFormat);
    else value.paymentDate = date;
  }
  if (input.partyId !== undefined || creating) {
    const id = (input.partyId ?? '').trim();
    if (id === '') add(partyField, CREDIT_MSG.partyRequired(kind));
    else if (!isUuid(id)) add(partyField, MSG.uuid(partyField));
    else value.partyId = id.toLowerCase();
  }
  if (input.description !== undefined) {
    const d = input.description.trim();
    if (d.length > CREDIT_LIMITS.description) add('description', MSG.tooLong('description', CREDIT_LIMITS.description));
    else value.description = d;
  }
  if (input.refNo !== undefined && kind === 'credit_memo') {
    const r = input.refNo.trim();
    if (r.length > CREDIT_LIMITS.refNo) add('refNo', MSG.tooLong('refNo', CREDIT_LIMITS.refNo));
    else value.refNo = r;
  }
  if (input.lineItems !== undefined || creating) {
    const items = input.lineItems ?? [];
    if (items.length === 0) add('lineItems', CREDIT_MSG.lineItemsRequired);
    else if (items.length > CREDIT_LIMITS.lineItems) add('lineItems', CREDIT_MSG.tooManyLines);
    else {
      const lines: CleanLine[] = [];
      items.forEach((l, i) => {
        const categoryId = (l.categoryId ?? '').trim();
        const description = (l.description ?? '').trim();
        const amountCents = toCents(l.amountCents);
        let ok = true;
        if (categoryId === '') {
          add(`lineItems.${i}.categoryId`, CREDIT_MSG.categoryRequired(i));
          ok = false;
        } else if (!isUuid(categoryId)) {
          add(`lineItems.${i}.categoryId`, CREDIT_MSG.categoryUuid(i));
          ok = false;
        }
        if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
          add(`lineItems.${i}.amount`, CREDIT_MSG.amount(i));
          ok = false;
        }
        if (description.length > CREDIT_LIMITS.lineDescription) {
          add(`lineItems.${i}.description`, CREDIT_MSG.lineDescription(i));
          ok = false;
        }
        if (ok) lines.push({ description, categoryId: categoryId.toLowerCase(), amountCents });
      });
      if (lines.length === items.length) {
        if (BigInt(totalCents(lines)) > MAX_CENTS) add('lineItems', CREDIT_MSG.totalTooLarge);
        else value.lineItems = lines;
      }
    }
  }
  return { value, problems };
}

export const totalCents = (lines: readonly { amountCents: number }[]): number => lines.reduce((s, l) => s + l.amountCents, 0);

/** The ledger entry's description: what it is, whose, and the user's description when there is one. */
export function entryDescription(kind: CreditKind, partyName: string, description: string, refNo: string): string {
  const head = `${CREDIT_KINDS[kind].what}${refNo ? ` ${refNo}` : ''}: ${partyName}`;
  return (description ? `${head} — ${description}` : head).slice(0, 1000);
}

/** appliedAmount and runningBalance (issue #18 adds applications; until then applied is 0). */
export function balanceOf(totalCentsValue: number, appliedCents: number): { appliedCents: number; runningBalanceCents: number } {
  return { appliedCents, runningBalanceCents: totalCentsValue - appliedCents };
}
