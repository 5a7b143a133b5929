/**
 * Accuracy of the categorisation model (issue #17 item 7): a generated workspace with realistic merchants —
 * subscriptions, frequent noisy card descriptions ("SQ *BLUE BOTTLE 1234"), merchants in two categories by
 * amount, merchants seen once, merchants never seen before, income — three months of history categorised by
 * hand (with a little human noise), then a held-out fourth month. Each held-out transaction is suggested in date
 * order from what the model knows at that moment; one the model does not apply is categorised by the user
 * (correctly) and learnt, as in the product; an auto-applied one is not learnt from.
 *
 * Reports, at the shipped threshold and a sweep of others: accuracy of the auto-applied suggestions and coverage
 * (share auto-applied). Runs the pure model (src/domain/categorisation.ts); tests/api/categorisation.test.ts
 * proves the same model end to end through the services.
 */
import { AUTO_APPLY_THRESHOLD, indexExamples, suggestCategory, type CategorisationExample, type CategorisationQuery } from '../src/domain/categorisation.js';

/** Deterministic pseudo-random numbers (mulberry32), so every run generates the same workspace. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Merchant {
  name: string;
  /** Description spellings the bank sends (# becomes a random store number). */
  spellings: string[];
  /** Category by amount: [category, min $, max $, share]. */
  bands: [string, number, number, number][];
  /** Transactions per month (mean). */
  perMonth: number;
  account: 'checking' | 'card';
  income?: boolean;
}

const M = (name: string, spellings: string[], bands: Merchant['bands'], perMonth: number, account: Merchant['account'] = 'card', income = false): Merchant => ({
  name,
  spellings,
  bands,
  perMonth,
  account,
  income,
});

const MERCHANTS: Merchant[] = [
  M('Amazon Web Services', ['AWS EMEA AWS.AMAZON.CO', 'AMAZON WEB SERVICES AWS.AMAZON.COM WA'], [['Hosting', 80, 2400, 1]], 1),
  M('GitHub', ['GITHUB INC SAN FRANCISCO CA', 'GITHUB, INC. #'], [['Software', 21, 400, 1]], 1),
  M('Slack', ['SLACK T0#', 'SLACK TECHNOLOGIES'], [['Software', 80, 90, 1]], 1),
  M('Google Workspace', ['GOOGLE *GSUITE_ACME', 'GOOGLE GSUITE ACME CC@GOOGLE.COM'], [['Software', 72, 72, 1]], 1),
  M('Zoom', ['ZOOM.US 888-799-9666', 'ZOOM VIDEO COMMUNICATIONS'], [['Software', 15, 16, 1]], 1),
  M('Figma', ['FIGMA MONTHLY', 'FIGMA INC SAN FRANCISCO'], [['Software', 45, 45, 1]], 1),
  M('Notion', ['NOTION LABS INC', 'NOTION.SO #'], [['Software', 10, 20, 1]], 1),
  M('Uber', ['UBER *TRIP HELP.UBER.COM', 'UBER TRIP #', 'UBER   *TRIP'], [['Travel', 9, 70, 1]], 9),
  M('Lyft', ['LYFT *RIDE TUE 8PM', 'LYFT *RIDE #'], [['Travel', 8, 55, 1]], 4),
  M('Delta', ['DELTA AIR LINES 006#', 'DELTA AIR #'], [['Travel', 180, 900, 1]], 1),
  M('Marriott', ['MARRIOTT SAN DIEGO #', 'MARRIOTT HOTELS #'], [['Travel', 160, 700, 1]], 0.7),
  M('Blue Bottle', ['SQ *BLUE BOTTLE #', 'BLUE BOTTLE COFFEE #', 'SQ *BLUE BOTTLE COFFEE'], [['Meals', 4, 28, 1]], 10),
  M('Starbucks', ['STARBUCKS STORE #', 'STARBUCKS #'], [['Meals', 3, 25, 1]], 8),
  M('Sweetgreen', ['SWEETGREEN #', 'TST* SWEETGREEN'], [['Meals', 11, 60, 1]], 6),
  M('DoorDash', ['DOORDASH*DASHPASS', 'DD *DOORDASH SWEETGRE'], [['Meals', 14, 120, 1]], 4),
  // The same merchant in two categories by amount.
  M(
    'Amazon',
    ['AMAZON.COM*#', 'AMZN MKTP US*#', 'AMAZON MKTPLACE PMTS'],
    [
      ['Office Supplies', 8, 320, 0.75],
      ['Computer Equipment', 250, 2600, 0.25],
    ],
    7,
  ),
  M(
    'Apple',
    ['APPLE.COM/BILL', 'APPLE STORE #', 'APPLE.COM/US'],
    [
      ['Software', 1, 20, 0.7],
      ['Computer Equipment', 900, 3500, 0.3],
    ],
    3,
  ),
  M(
    'Costco',
    ['COSTCO WHSE #', 'COSTCO WHOLESALE #'],
    [
      ['Meals', 40, 180, 0.6],
      ['Office Supplies', 300, 900, 0.4],
    ],
    2,
  ),
  M(
    'Home Depot',
    ['THE HOME DEPOT #', 'HOME DEPOT #'],
    [
      ['Repairs', 12, 150, 0.7],
      ['Furniture and Equipment', 500, 3000, 0.3],
    ],
    1.5,
  ),
  // Genuinely mixed: the same amounts in two categories (no model can tell them apart; it should not apply).
  M(
    'Target',
    ['TARGET #', 'TARGET.COM *'],
    [
      ['Office Supplies', 15, 140, 0.5],
      ['Meals', 15, 140, 0.5],
    ],
    1,
  ),
  M('Staples', ['STAPLES #', 'STAPLES DIRECT'], [['Office Supplies', 10, 250, 1]], 1),
  M('WeWork', ['WEWORK #', 'WEWORK MEMBERSHIP'], [['Rent', 2400, 2400, 1]], 1, 'checking'),
  M('Gusto', ['GUSTO PAYROLL #', 'GUSTO NET #'], [['Payroll', 18000, 26000, 1]], 2, 'checking'),
  M('Gusto Fees', ['GUSTO FEE #'], [['Payroll Fees', 80, 160, 1]], 1, 'checking'),
  M('Comcast', ['COMCAST BUSINESS #', 'COMCAST CABLE COMM'], [['Utilities', 120, 140, 1]], 1, 'checking'),
  M('PG&E', ['PGANDE WEB ONLINE', 'PG&E WEBRECURRING'], [['Utilities', 90, 400, 1]], 1, 'checking'),
  M('Google Ads', ['GOOGLE *ADS#', 'GOOGLE ADS #'], [['Advertising', 300, 5000, 1]], 2),
  M(
    'LinkedIn',
    ['LINKEDIN #', 'LINKEDIN ADS #'],
    [
      ['Advertising', 200, 1500, 0.6],
      ['Recruiting', 8000, 9500, 0.4],
    ],
    1,
  ),
  M('Stripe', ['STRIPE TRANSFER ST-#', 'STRIPE PAYOUT #'], [['Sales', 500, 30000, 1]], 8, 'checking', true),
  M('Stripe Fees', ['STRIPE FEE #'], [['Merchant Fees', 30, 400, 1]], 1, 'checking'),
  M('Interest', ['INTEREST PAYMENT', 'INTEREST EARNED'], [['Interest Income', 2, 40, 1]], 1, 'checking', true),
];

/** Local merchants: each appears rarely (some once in the history, some only in the held-out month). */
const LOCAL: [string, string][] = [
  ['JOES DINER', 'Meals'],
  ['TONY PIZZA NAPOLETANA', 'Meals'],
  ['CAFE MADELEINE', 'Meals'],
  ['PHILZ COFFEE', 'Meals'],
  ['TARTINE BAKERY', 'Meals'],
  ['ACE HARDWARE', 'Repairs'],
  ['SHELL OIL', 'Travel'],
  ['CHEVRON', 'Travel'],
  ['HILTON GARDEN INN', 'Travel'],
  ['UNITED AIRLINES', 'Travel'],
  ['FEDEX OFFICE', 'Office Supplies'],
  ['USPS PO', 'Postage'],
  ['UPS STORE', 'Postage'],
  ['DOCUSIGN', 'Software'],
  ['DROPBOX', 'Software'],
  ['CITY PARKING', 'Travel'],
  ['BEST BUY', 'Computer Equipment'],
  ['OFFICE DEPOT', 'Office Supplies'],
  ['LEGALZOOM', 'Legal'],
  ['WSGR LAW', 'Legal'],
  ['CALIFORNIA FRANCHISE TAX', 'Taxes'],
  ['IRS USATAXPYMT', 'Taxes'],
  ['HISCOX INSURANCE', 'Insurance'],
  ['BLUE SHIELD CA', 'Insurance'],
  ['MEETUP', 'Advertising'],
  ['CALTRAIN', 'Travel'],
  ['BART CLIPPER', 'Travel'],
  ['WALGREENS', 'Office Supplies'],
  ['SMART AND FINAL', 'Meals'],
  ['AUTH0', 'Software'],
  ['MAILCHIMP', 'Advertising'],
  ['NAMECHEAP', 'Software'],
  ['HERTZ RENT A CAR', 'Travel'],
  ['CHIPOTLE', 'Meals'],
  ['PEETS COFFEE', 'Meals'],
  ['SUPERDUPER BURGERS', 'Meals'],
  ['RITUAL COFFEE', 'Meals'],
  ['HOLIDAY INN EXPRESS', 'Travel'],
  ['ALASKA AIRLINES', 'Travel'],
  ['EVENTBRITE', 'Advertising'],
];

interface Generated {
  history: (CategorisationExample & { date: string })[];
  heldOut: (CategorisationQuery & { date: string; truth: string; vendor: string; kind: 'regular' | 'ambiguous' | 'local' | 'new' })[];
  merchants: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The workspace: months 1–3 history (2026-01..03), month 4 (2026-04) held out. */
export function generateWorkspace(seed = 17, scale = 3): Generated {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const storeNo = () => String(Math.floor(r() * 9000) + 1000);
  const history: Generated['history'] = [];
  const heldOut: Generated['heldOut'] = [];
  const allCategories = [...new Set([...MERCHANTS.flatMap((m) => m.bands.map((b) => b[0])), ...LOCAL.map((l) => l[1])])];
  let at = 0;
  const emit = (
    month: number,
    day: number,
    m: { name: string; description: string; truth: string; cents: number; account: string; kind: Generated['heldOut'][number]['kind'] },
  ) => {
    const date = `2026-${pad(month)}-${pad(day)}`;
    if (month <= 3) {
      // People are not perfect: 1 % of the hand-categorised history is wrong.
      const categoryId = r() < 0.01 ? pick(allCategories) : m.truth;
      history.push({
        merchantName: m.name,
        description: m.description,
        amountCents: m.cents,
        bankAccountId: m.account,
        categoryId,
        vendorId: m.name,
        at: ++at,
        date,
      });
    } else
      heldOut.push({
        merchantName: m.name,
        description: m.description,
        amountCents: m.cents,
        bankAccountId: m.account,
        date,
        truth: m.truth,
        vendor: m.name,
        kind: m.kind,
      });
  };
  for (let month = 1; month <= 4; month++) {
    for (const m of MERCHANTS) {
      // Poisson-ish count around perMonth.
      const mean = m.perMonth * (m.bands.length > 1 || m.perMonth >= 2 ? scale : 1);
      let n = Math.floor(mean);
      if (r() < mean - n) n++;
      for (let i = 0; i < n; i++) {
        let u = r();
        const band = m.bands.find((b) => (u -= b[3]) < 0) ?? m.bands[m.bands.length - 1]!;
        const dollars = band[1] + r() * (band[2] - band[1]);
        const cents = Math.round(dollars * 100) * (m.income ? 1 : -1);
        // Half the card feed has no merchant name, only the raw description (Plaid often has none).
        const description = pick(m.spellings).replace('#', storeNo());
        emit(month, 1 + Math.floor(r() * 28), {
          name: r() < 0.5 ? m.name : '',
          description,
          truth: band[0],
          cents,
          account: m.account,
          kind: m.bands.length > 1 ? 'ambiguous' : 'regular',
        });
      }
    }
    // Local merchants: the first ten appear once in the history and again in the held-out month; the next twenty
    // only in the held-out month (never seen); the rest once in the history only.
    LOCAL.forEach(([name, truth], i) => {
      const seenBefore = i < 10 && month === 2;
      const again = i < 30 && month === 4;
      const onlyPast = i >= 30 && month === 1;
      if (!seenBefore && !again && !onlyPast) return;
      const cents = -Math.round((8 + r() * 300) * 100);
      emit(month, 1 + Math.floor(r() * 28), {
        name: '',
        description: `${name} ${storeNo()} SAN FRANCISCO CA`,
        truth,
        cents,
        account: 'card',
        kind: i < 10 ? 'local' : 'new',
      });
    });
  }
  heldOut.sort((a, b) => a.date.localeCompare(b.date));
  return { history, heldOut, merchants: MERCHANTS.length + LOCAL.length };
}

export interface ThresholdResult {
  threshold: number;
  applied: number;
  correct: number;
  accuracy: number;
  coverage: number;
}

/** Replays the held-out month at one threshold: suggested in date order, the unapplied ones learnt from the user. */
export function evaluate(g: Generated, threshold: number): ThresholdResult & { byKind: Record<string, { n: number; applied: number; correct: number }> } {
  const known: CategorisationExample[] = [...g.history];
  let at = known.length;
  let applied = 0;
  let correct = 0;
  const byKind: Record<string, { n: number; applied: number; correct: number }> = {};
  let index = indexExamples(known);
  for (const t of g.heldOut) {
    const k = (byKind[t.kind] ??= { n: 0, applied: 0, correct: 0 });
    k.n++;
    const s = suggestCategory(index, t);
    if (s && s.confidence >= threshold) {
      applied++;
      k.applied++;
      if (s.categoryId === t.truth) {
        correct++;
        k.correct++;
      }
    } else {
      known.push({
        merchantName: t.merchantName,
        description: t.description,
        amountCents: t.amountCents,
        bankAccountId: t.bankAccountId,
        categoryId: t.truth,
        vendorId: t.vendor,
        at: ++at,
      });
      index = indexExamples(known);
    }
  }
  const n = g.heldOut.length;
  return { threshold, applied, correct, accuracy: applied ? correct / applied : 0, coverage: applied / n, byKind };
}

export function benchCategorisation(seed = 17) {
  const g = generateWorkspace(seed);
  const validation = [18, 19, 20].map((s) => ({ seed: s, ...evaluate(generateWorkspace(s), AUTO_APPLY_THRESHOLD) }));
  const shipped = evaluate(g, AUTO_APPLY_THRESHOLD);
  const sweep = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95].map((t) => evaluate(g, t));
  return { seed, merchants: g.merchants, history: g.history.length, heldOut: g.heldOut.length, threshold: AUTO_APPLY_THRESHOLD, shipped, sweep, validation };
}

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)} %`;

/** The markdown table of a run (bench-results/categorisation.md and the parties README). */
export function categorisationTable(r: ReturnType<typeof benchCategorisation>): string {
  const s = r.shipped;
  return [
    `| threshold | held-out transactions | auto-applied | coverage | accuracy of the auto-applied | goal |`,
    '|---|---|---|---|---|---|',
    `| **${r.threshold}** (shipped) | ${r.heldOut} | ${s.applied} | **${pct(s.coverage)}** | **${pct(s.accuracy)}** | ≥ 97 % at ≥ 90 % coverage |`,
    '',
    'By kind of transaction at the shipped threshold:',
    '',
    '| kind | transactions | auto-applied | correct |',
    '|---|---|---|---|',
    ...Object.entries(s.byKind).map(([k, v]) => `| ${k} | ${v.n} | ${v.applied} | ${v.correct} |`),
    '',
    'Other workspaces from the same generator (other seeds; the threshold was chosen on seed 17):',
    '',
    '| seed | auto-applied | coverage | accuracy |',
    '|---|---|---|---|',
    ...r.validation.map((v) => `| ${v.seed} | ${v.applied} | ${pct(v.coverage)} | ${pct(v.accuracy)} |`),
    '',
    'Other thresholds (seed 17):',
    '',
    '| threshold | auto-applied | coverage | accuracy |',
    '|---|---|---|---|',
    ...r.sweep.map((t) => `| ${t.threshold} | ${t.applied} | ${pct(t.coverage)} | ${pct(t.accuracy)} |`),
  ].join('\n');
}
