import { formatMoney } from '@ledgerline/ui';

/** Spec §9: USD, en-US, 2 decimals. Rounded to the cent first, and never "-$0.00". */
export function formatAmount(amount: number): string {
  const cents = Math.round(amount * 100);
  return formatMoney(cents === 0 ? 0 : cents / 100);
}
