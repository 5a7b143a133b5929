import { dollars, TOLERANCE_CENTS } from './documents.js';

/** Spec §3 "Payment status". */
export type PaymentStatus = 'PAID' | 'PARTIALLY_PAID' | 'OVERPAID' | 'UNPAID';

/**
 * A bill's or invoice's payment status from what its connections pay (bank transactions, manual journals, vendor
 * credits / credit memos), with the 0.01 tolerance of spec §9: nothing paid is UNPAID; within 0.01 of the total is
 * PAID; more than 0.01 over is OVERPAID; anything else PARTIALLY_PAID.
 */
export function paymentStatus(totalCents: number, paidCents: number): PaymentStatus {
  if (paidCents <= 0) return 'UNPAID';
  const diff = paidCents - totalCents;
  if (Math.abs(diff) <= TOLERANCE_CENTS) return 'PAID';
  return diff > 0 ? 'OVERPAID' : 'PARTIALLY_PAID';
}

/** The differenceMessages explaining a mismatch between the total and what is paid (none when PAID or UNPAID). */
export function differenceMessages(totalCents: number, paidCents: number): string[] {
  const status = paymentStatus(totalCents, paidCents);
  if (status === 'PARTIALLY_PAID') return [`Payments of ${dollars(paidCents)} leave ${dollars(totalCents - paidCents)} of ${dollars(totalCents)} unpaid`];
  if (status === 'OVERPAID') return [`Payments of ${dollars(paidCents)} exceed the total of ${dollars(totalCents)} by ${dollars(paidCents - totalCents)}`];
  return [];
}
