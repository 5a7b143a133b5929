/**
 * The key a vendor is matched by (issue #17): a bank merchant becomes the vendor whose name has the same key,
 * and two vendors of a workspace cannot share one. Pure.
 *
 * - case and accents do not count ("Café" = "CAFE");
 * - card processors' prefixes go ("SQ *", "TST*", "PAYPAL *", "PP*");
 * - punctuation is a space ("Blue-Bottle" = "Blue Bottle"), "&" is "and";
 * - store numbers go: "#1234", "No. 12", "Store 0042", a trailing number ("WALGREENS 1234") — a name that is
 *   only a number keeps it;
 * - legal forms at the end go: inc, llc, l.l.c., ltd, co, corp, corporation, company, plc, gmbh;
 * - a leading "the" goes.
 */
const PROCESSOR_PREFIX = /^(sq|tst|pp|paypal|sp|py|ck|in|dd)\s*\*\s*/i;
const LEGAL_FORMS = new Set(['inc', 'incorporated', 'llc', 'ltd', 'limited', 'co', 'corp', 'corporation', 'company', 'plc', 'gmbh', 'lp', 'llp']);

export function vendorNameKey(name: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
  s = s.replace(PROCESSOR_PREFIX, '');
  // Store numbers written with a mark: "#1234", "no. 12", "store 0042".
  s = s.replace(/(#|\bno\.?\s*|\bstore\s+)\d+/g, ' ');
  // Dotted legal forms before punctuation goes: "l.l.c." -> "llc".
  s = s.replace(/\bl\.\s*l\.\s*c\b\.?/g, 'llc').replace(/\bl\.\s*l\.\s*p\b\.?/g, 'llp');
  s = s
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  let words = s.split(' ').filter(Boolean);
  while (words.length > 1 && /^\d+$/.test(words[words.length - 1] as string)) words = words.slice(0, -1);
  while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1] as string)) words = words.slice(0, -1);
  while (words.length > 1 && /^\d+$/.test(words[words.length - 1] as string)) words = words.slice(0, -1);
  if (words.length > 1 && words[0] === 'the') words = words.slice(1);
  return words.join(' ');
}
