// The bank accounts' tie-out as the shell says it (issue #12): the status in words and tone, the links to an
// account's ledger and opening balance, and the notice for a difference that outlasts a sync. Moved from
// @ledgerline/api (issue #14 item 8, decision 0034); the sums stay there (the reports remote reads them too).
import type { TieOutStatus, TiedBankAccount } from '@ledgerline/api';

const cents = (dollars: number): number => Math.round(dollars * 100);
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (dollars: number): string => usd.format(dollars);

export type TieOutTone = 'ok' | 'warn' | 'busy' | 'muted';

/** What the screens say about a tie-out, and in which tone. */
export interface TieOutLabel {
  tone: TieOutTone;
  /** 'Matches bank', 'Differs by $12.00', 'Updating from the bank…'. */
  text: string;
}

/** `long` adds 'from the bank' to a difference (the dashboard's wording). */
export function tieOutLabel(status: TieOutStatus, difference: number | null, options: { long?: boolean } = {}): TieOutLabel {
  switch (status) {
    case 'matches':
      return { tone: 'ok', text: 'Matches bank' };
    case 'differs':
      return { tone: 'warn', text: `Differs by ${money(Math.abs(difference ?? 0))}${options.long ? ' from the bank' : ''}` };
    case 'catching_up':
      return { tone: 'busy', text: 'Updating from the bank…' };
    case 'currency':
      return { tone: 'muted', text: 'Not in USD: not compared' };
    default:
      return { tone: 'muted', text: 'Not compared with the bank yet' };
  }
}

/** Where an account's lines are: its ledger (spec §2 query parameters tab and ledgerAccount). */
export function ledgerHref(ledgerAccountId: string): string {
  return `/accounting?${new URLSearchParams({ tab: 'ledger', ledgerAccount: ledgerAccountId }).toString()}`;
}

/** The chart of accounts with the account's edit (opening balance) open: spec §2 acc and mode. */
export function openingBalanceHref(ledgerAccountId: string): string {
  return `/accounting?${new URLSearchParams({ tab: 'coa', acc: ledgerAccountId, mode: 'edit' }).toString()}`;
}

/** An account whose books still differ from the bank after its sync: the user is told, with what to do. */
export interface TieOutProblem {
  accountId: string;
  name: string;
  mask: string;
  difference: number;
  bankBalance: number | null;
  booksBalance: number | null;
  ledgerAccountId: string | null;
  /** Changes when the difference does: a notice the user dismissed comes back only for a new difference. */
  key: string;
}

/** Accounts that differ while no sync of theirs is running (a difference during a sync is not a persistent one). */
export function persistentDifferences(accounts: readonly TiedBankAccount[], syncingAccountIds: ReadonlySet<string> = new Set()): TieOutProblem[] {
  return accounts
    .filter((a) => a.tieOut?.status === 'differs' && !syncingAccountIds.has(a.id))
    .map((a) => {
      const t = a.tieOut!;
      const difference = t.difference ?? 0;
      return {
        accountId: a.id,
        name: a.name,
        mask: a.mask,
        difference,
        bankBalance: t.bankBalance,
        booksBalance: t.booksBalance,
        ledgerAccountId: t.ledgerAccountId,
        key: `${a.id}:${cents(difference)}:${t.asOf ?? ''}`,
      };
    });
}

/** The notice's words for a persistent difference. */
export function tieOutProblemMessage(p: Pick<TieOutProblem, 'name' | 'mask' | 'difference' | 'bankBalance' | 'booksBalance'>): {
  title: string;
  message: string;
} {
  const account = p.mask ? `${p.name} •••• ${p.mask}` : p.name;
  const sides = p.booksBalance !== null && p.bankBalance !== null ? ` The books say ${money(p.booksBalance)}, the bank ${money(p.bankBalance)}.` : '';
  return {
    title: `${account} differs from the bank`,
    message: `The books differ by ${money(Math.abs(p.difference))} after the last sync.${sides} Sync again, set the account's opening balance, or look at its ledger lines.`,
  };
}
