/** Plain-text accounting formats: the user's exit door and the test oracle (hledger reads our books). */

export interface ExportAccount {
  id: string;
  name: string;
  coaId: number;
  classGroup: string;
  parentId: string | null;
}

export interface ExportEntry {
  id: string;
  date: string;
  description: string;
  reversesEntryId: string | null;
  lines: { accountId: string; direction: 'debit' | 'credit'; amountCents: number }[];
}

export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function pathOf(accounts: Map<string, ExportAccount>, a: ExportAccount): ExportAccount[] {
  const path: ExportAccount[] = [];
  for (let cur: ExportAccount | undefined = a; cur; cur = cur.parentId ? accounts.get(cur.parentId) : undefined) path.unshift(cur);
  return path;
}

/** hledger account names: path of names joined by ':'; no ':' inside a name, no double spaces; unique. */
export function hledgerNames(accounts: ExportAccount[]): Map<string, string> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const clean = (s: string) => s.replace(/[:;]/g, '-').replace(/\s+/g, ' ').trim() || 'Unnamed';
  const names = new Map(
    accounts.map((a) => [
      a.id,
      pathOf(byId, a)
        .map((x) => clean(x.name))
        .join(':'),
    ]),
  );
  const seen = new Map<string, number>();
  for (const n of names.values()) seen.set(n, (seen.get(n) ?? 0) + 1);
  for (const a of accounts) {
    const n = names.get(a.id) as string;
    if ((seen.get(n) ?? 0) > 1) names.set(a.id, `${n} ${a.coaId}`);
  }
  return names;
}

const BEANCOUNT_ROOT: Record<string, string> = {
  Assets: 'Assets',
  Liability: 'Liabilities',
  Equity: 'Equity',
  Income: 'Income',
  Expenses: 'Expenses',
  Transfer: 'Assets:Transfer',
};

/** Beancount account names: a root type, then capitalised components of letters, digits and dashes, each with its coaId. */
export function beancountNames(accounts: ExportAccount[]): Map<string, string> {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const component = (a: ExportAccount) => {
    const words = a.name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9 ]/g, ' ')
      .split(' ')
      .filter(Boolean)
      .map((w) => w[0]?.toUpperCase() + w.slice(1));
    return [...words, String(a.coaId)].join('-');
  };
  return new Map(
    accounts.map((a) => {
      const [root, ...rest] = pathOf(byId, a);
      return [a.id, [BEANCOUNT_ROOT[root?.classGroup ?? 'Assets'] ?? 'Assets', ...rest.map(component)].join(':')];
    }),
  );
}

function cleanDescription(s: string): string {
  return s.replace(/[\r\n;]+/g, ' ').trim();
}

export function toHledger(workspaceId: string, accounts: ExportAccount[], entries: Iterable<ExportEntry>): string {
  const names = hledgerNames(accounts);
  const out: string[] = [
    `; Ledgerline books of workspace ${workspaceId}`,
    '; Amounts in USD; one transaction per journal entry (reversals name the entry they reverse).',
    '',
  ];
  for (const a of accounts) out.push(`account ${names.get(a.id)}  ; coaId: ${a.coaId}`);
  out.push('');
  for (const e of entries) {
    out.push(`${e.date} ${cleanDescription(e.description) || 'Entry'}  ; entry:${e.id}${e.reversesEntryId ? `, reverses:${e.reversesEntryId}` : ''}`);
    for (const l of e.lines) out.push(`    ${names.get(l.accountId)}  ${centsToDecimal(l.direction === 'debit' ? l.amountCents : -l.amountCents)} USD`);
    out.push('');
  }
  return out.join('\n');
}

export function toBeancount(workspaceId: string, accounts: ExportAccount[], entries: ExportEntry[], openDate: string): string {
  const names = beancountNames(accounts);
  const out: string[] = [`; Ledgerline books of workspace ${workspaceId}`, 'option "operating_currency" "USD"', ''];
  // A bare root type (Assets, Income...) is not an account to beancount; class groups hold no lines.
  for (const a of accounts) if (names.get(a.id)?.includes(':')) out.push(`${openDate} open ${names.get(a.id)} USD`);
  out.push('');
  for (const e of entries) {
    out.push(`${e.date} * ${JSON.stringify(cleanDescription(e.description) || 'Entry')}`);
    out.push(`  entry: "${e.id}"`);
    for (const l of e.lines) out.push(`  ${names.get(l.accountId)}  ${centsToDecimal(l.direction === 'debit' ? l.amountCents : -l.amountCents)} USD`);
    out.push('');
  }
  return out.join('\n');
}
