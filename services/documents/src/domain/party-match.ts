import { distance } from 'fastest-levenshtein';

/**
 * suggestedVendor / suggestedCustomer (spec documents-parties-integrations §3; decision 0027-document-api-completion),
 * pure. A bill can carry the biller's name as written on it (billerName, e.g. read from an upload), an invoice the
 * customer's (customerName). When that name does not name the linked vendor / customer (or there is none), the
 * existing party whose name matches it best is suggested — if it matches well enough; otherwise nothing.
 *
 * Names are compared by a key: case, accents and punctuation do not count, "&" is "and", a leading "the" and legal forms
 * at the end (inc, llc, ltd, co, corp, ...) go. Similarity is the better of the keys' Levenshtein similarity
 * (1 − distance / longer length) and their word overlap (shared words / words of the shorter name, so "Acme" matches
 * "Acme Office Supplies" at 1 when the shorter has at least one word of 4+ letters).
 */
const LEGAL_FORMS = new Set(['inc', 'incorporated', 'llc', 'ltd', 'limited', 'co', 'corp', 'corporation', 'company', 'plc', 'gmbh', 'lp', 'llp', 'pty']);
/** Below this, no suggestion: "Acme" and "Apex" (0.5) are not the same business. */
export const MATCH_THRESHOLD = 0.75;

export function nameKey(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  let words = s.split(' ').filter(Boolean);
  while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1] as string)) words = words.slice(0, -1);
  if (words.length > 1 && words[0] === 'the') words = words.slice(1);
  return words.join(' ');
}

/** 0–1: how alike two names are (1: the same key). */
export function nameSimilarity(a: string, b: string): number {
  const ka = nameKey(a);
  const kb = nameKey(b);
  if (ka === '' || kb === '') return 0;
  if (ka === kb) return 1;
  const lev = 1 - distance(ka, kb) / Math.max(ka.length, kb.length);
  const wa = new Set(ka.split(' '));
  const wb = new Set(kb.split(' '));
  const [small, big] = wa.size <= wb.size ? [wa, wb] : [wb, wa];
  const shared = [...small].filter((w) => big.has(w));
  // Word overlap counts only when a shared word is distinctive (4+ letters): "the co" words are gone, "a" or "usa" are weak.
  const overlap = shared.some((w) => w.length >= 4) ? shared.length / small.size : 0;
  return Math.max(lev, overlap);
}

export interface NamedParty {
  id: string;
  name: string;
}

/**
 * The party to suggest for a document whose name as written is `written` and whose linked party is `linked`: none when
 * nothing is written, when the written name is the linked party's, or when no other party matches it better than the
 * linked one and at least MATCH_THRESHOLD. Ties go to the first candidate (the caller's order).
 */
export function suggestParty(written: string, linked: NamedParty | null, candidates: readonly NamedParty[]): NamedParty | null {
  if (nameKey(written) === '') return null;
  const linkedScore = linked ? nameSimilarity(written, linked.name) : 0;
  if (linkedScore === 1) return null;
  let best: { party: NamedParty; score: number } | null = null;
  for (const c of candidates) {
    if (linked && c.id === linked.id) continue;
    const score = nameSimilarity(written, c.name);
    if (score > (best?.score ?? 0)) best = { party: c, score };
  }
  if (!best || best.score < MATCH_THRESHOLD || best.score <= linkedScore) return null;
  return best.party;
}
