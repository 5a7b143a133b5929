// Debian's hledger as the oracle of the reports: runs `hledger balance` on a journal file and reads its CSV
// into cents per account and column (the `total` row and `--row-total` column kept).
import { execFileSync } from 'node:child_process';

export interface HledgerTable {
  /** Column headers as hledger prints them (2025-01, 2025Q1, or balance without an interval), without the row-total column. */
  columns: string[];
  /** Signed cents (debits positive) by full account name; with `--row-total`, one more value at the end. */
  rows: Map<string, number[]>;
  /** The `total` row: the sum of the accounts matched (top-level accounts only count once). */
  total: number[];
}

/** One CSV line of hledger's output: quoted fields, quotes doubled inside. */
function fields(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"]|"")*)"(?:,|$)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push((m[1] as string).replaceAll('""', '"'));
  return out;
}

/** `0`, `1234.56 USD`, `-1,234.56 USD` → cents, without floating point. */
export function centsOf(amount: string): number {
  if (amount === '0') return 0;
  const m = /^(-?)([\d,]+)\.(\d{2}) USD$/.exec(amount);
  if (!m) throw new Error(`hledger amount not in USD with 2 decimals: ${amount}`);
  const cents = Number((m[2] as string).replaceAll(',', '')) * 100 + Number(m[3]);
  return m[1] ? -cents : cents;
}

/**
 * `hledger balance` with every parent account shown and holding its children (`--tree --no-elide`),
 * in CSV. `args`: period, interval and account queries.
 */
export function hledgerBalance(file: string, args: string[], options: { rowTotal?: boolean } = {}): HledgerTable {
  let csv: string;
  try {
    csv = execFileSync('hledger', ['-f', file, 'balance', '--tree', '--no-elide', '-O', 'csv', ...(options.rowTotal ? ['-T'] : []), ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error("hledger is not installed: apt-get install hledger (Debian's, as .ci/run does)");
    throw err;
  }
  const [header, ...lines] = csv.trim().split('\n').map(fields);
  if (!header || header[0] !== 'account') throw new Error(`unexpected hledger header: ${csv.slice(0, 200)}`);
  // Without an interval there is one column and no row-total column: the column is the total.
  const totalColumn = options.rowTotal && header.at(-1) === 'total';
  const columns = header.slice(1, totalColumn ? -1 : undefined);
  const rows = new Map<string, number[]>();
  let total: number[] | undefined;
  for (const [name, ...amounts] of lines) {
    const cents = amounts.map(centsOf);
    if (options.rowTotal && !totalColumn) cents.push(cents[0] as number);
    if (name === 'total') total = cents;
    else rows.set(name as string, cents);
  }
  return { columns, rows, total: total ?? [] };
}
