// An account's opening balance in the chart of accounts' edit dialog (PUT /categories/{id}/opening-balance, issue
// #12): which accounts take one, and the form's amount and date checks. Moved from @ledgerline/api (issue #14 item
// 8, decision 0034).
/** Bank, card, asset, liability and equity accounts at levels 3–4 take one (not Opening Balance Equity itself). */
export function canHaveOpeningBalance(account: { type: string | null; level: number; name: string }): boolean {
  return account.level >= 3 && ['Assets', 'Liability', 'Equity'].includes(account.type ?? '') && account.name !== 'Opening Balance Equity';
}

export interface OpeningBalanceFormValues {
  /** Dollars as typed; empty: none. A leading minus for an overdrawn bank account. */
  openingBalance: string;
  /** YYYY-MM-DD or empty. */
  openingBalanceDate: string;
}

export type OpeningBalanceFormErrors = Partial<Record<keyof OpeningBalanceFormValues, string>>;

const OPENING_AMOUNT = /^-?\d{1,10}(\.\d{1,2})?$/;

/** The amount as the server takes it (dollars, 2 decimals at most), or null when it is not one. */
export function parseOpeningBalance(text: string): number | null {
  const clean = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,/g, '')
    .replace(/^(-?)\$/, '$1');
  return OPENING_AMOUNT.test(clean) ? Number(clean) : null;
}

/** An amount with at most 2 decimals (spec §9; the server refuses more) and, with it, the date it opens on. */
export function validateOpeningBalance(values: OpeningBalanceFormValues): OpeningBalanceFormErrors {
  const errors: OpeningBalanceFormErrors = {};
  if (values.openingBalance.trim() === '') return errors;
  if (parseOpeningBalance(values.openingBalance) === null) errors.openingBalance = 'Enter an amount in dollars with at most 2 decimals';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.openingBalanceDate)) errors.openingBalanceDate = 'Opening balance date is required';
  return errors;
}
