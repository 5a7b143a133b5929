import { AppError } from '@ledgerline/platform';
import { toBeancount, toHledger, type ExportAccount, type ExportEntry } from '../domain/plaintext.js';
import { allAccounts } from '../store/chart-store.js';
import { allEntryLines } from '../store/ledger-lines.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';

export const EXPORT_FORMATS = ['hledger', 'beancount'] as const;

export class ExportUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /** The workspace's books as a plain-text journal (every entry, reversals included, in date order). */
  async export(tenant: Tenant, format: string) {
    const f = format || 'hledger';
    if (!(EXPORT_FORMATS as readonly string[]).includes(f))
      throw AppError.invalid([{ field: 'format', message: `format must be one of: ${EXPORT_FORMATS.join(', ')}` }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const accounts: ExportAccount[] = (await allAccounts(trx)).map((a) => ({
        id: a.id,
        name: a.name,
        coaId: a.coa_id,
        classGroup: a.class_group,
        parentId: a.parent_id,
      }));
      const rows = await allEntryLines(trx);
      const entries: ExportEntry[] = [];
      for (const r of rows) {
        let e = entries.at(-1);
        if (!e || e.id !== r.id) {
          e = { id: r.id, date: r.entry_date, description: r.description, reversesEntryId: r.reverses_entry_id, lines: [] };
          entries.push(e);
        }
        e.lines.push({ accountId: r.account_id, direction: r.direction, amountCents: r.amount_cents });
      }
      const stamp = new Date().toISOString().slice(0, 10);
      if (f === 'beancount') {
        return {
          content: toBeancount(tenant.workspaceId, accounts, entries, entries[0]?.date ?? stamp),
          fileName: `ledgerline-${stamp}.beancount`,
          contentType: 'text/plain; charset=utf-8',
        };
      }
      return { content: toHledger(tenant.workspaceId, accounts, entries), fileName: `ledgerline-${stamp}.journal`, contentType: 'text/plain; charset=utf-8' };
    });
  }
}
