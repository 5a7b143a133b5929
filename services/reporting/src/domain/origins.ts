// Spec §3 money types over the entries' origins: pure rules, unit-tested.

/**
 * Where an entry's money came from, as the read model keys it (`origin` column of the balances):
 * bank = booked from a bank transaction (WorkspaceTransaction, its re-categorisations, splits and accrual
 * recognitions); document = opening balances, bills, invoices, fixed assets, vendor credits, credit memos;
 * adjustment = manual journals (ManualEntry), the accountant's adjusting entries; unclassified = rows
 * applied before the read model kept origins (a rebuild reclassifies them from the events).
 */
export const ORIGIN = { bank: 0, document: 1, adjustment: 2, unclassified: 3 } as const;
export type Origin = (typeof ORIGIN)[keyof typeof ORIGIN];

const BY_SOURCE_TYPE: Record<string, Origin> = {
  WorkspaceTransaction: ORIGIN.bank,
  ManualEntry: ORIGIN.adjustment,
  OpeningBalance: ORIGIN.document,
  Bill: ORIGIN.document,
  Invoice: ORIGIN.document,
  FixedAsset: ORIGIN.document,
  VendorCredit: ORIGIN.document,
  CreditMemo: ORIGIN.document,
};

/** The origin of an entry.posted's source_type (a reversal carries its entry's), undefined for an unknown type. */
export function originOf(sourceType: string): Origin | undefined {
  return Object.hasOwn(BY_SOURCE_TYPE, sourceType) ? BY_SOURCE_TYPE[sourceType] : undefined;
}

/** Spec §3 "Money types: non-bank, unadjusted, adjusted (default ALL)". */
export const MONEY_TYPES = ['ALL', 'non-bank', 'unadjusted', 'adjusted'] as const;
export type MoneyType = (typeof MONEY_TYPES)[number];

/** The value as written in the spec (case-insensitive; empty is ALL), or undefined when it is none of them. */
export function parseMoneyType(raw: string): MoneyType | undefined {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === 'all') return 'ALL';
  return (MONEY_TYPES as readonly string[]).includes(v) ? (v as MoneyType) : undefined;
}

/**
 * The origins a money type reads; null: every row (ALL and adjusted read the books as they are, so they
 * stay exact for rows applied before origins were kept).
 */
export function originsOf(moneyType: MoneyType): Origin[] | null {
  switch (moneyType) {
    case 'non-bank':
      return [ORIGIN.document, ORIGIN.adjustment];
    case 'unadjusted':
      return [ORIGIN.bank, ORIGIN.document];
    default:
      return null;
  }
}
