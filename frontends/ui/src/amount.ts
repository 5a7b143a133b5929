// Spec §5: an amount input accepts only digits with an optional decimal point, or nothing; a leading dollar
// sign and commas are stripped; at most 10 characters.

export const AMOUNT_MAX_LENGTH = 10;

const AMOUNT_PATTERN = /^\d*\.?\d*$/;

/**
 * The value an amount input keeps for what was typed or pasted: the cleaned text, or null when the text is
 * refused (the input then keeps its previous value).
 */
export function sanitizeAmount(raw: string): string | null {
  const cleaned = raw.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!AMOUNT_PATTERN.test(cleaned)) return null;
  if (cleaned.length > AMOUNT_MAX_LENGTH) return null;
  return cleaned;
}

/** The number an accepted amount stands for; null for nothing typed or a lone decimal point. */
export function parseAmount(value: string): number | null {
  if (value === '' || value === '.') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
