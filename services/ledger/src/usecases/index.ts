import { AccrualUseCases } from './accruals.js';
import { CategoryUseCases } from './categories.js';
import type { LedgerDeps } from './context.js';
import { ExportUseCases } from './export.js';
import { GeneralLedgerUseCases } from './general-ledger.js';
import { OpeningBalanceUseCases } from './opening-balances.js';
import { PostingUseCases } from './posting.js';
import { TransactionUseCases } from './transactions.js';

export interface LedgerUseCases {
  categories: CategoryUseCases;
  transactions: TransactionUseCases;
  generalLedger: GeneralLedgerUseCases;
  exports: ExportUseCases;
  accruals: AccrualUseCases;
  postings: PostingUseCases;
  openingBalances: OpeningBalanceUseCases;
}

export function createUseCases(deps: LedgerDeps): LedgerUseCases {
  return { categories: new CategoryUseCases(deps), transactions: new TransactionUseCases(deps), generalLedger: new GeneralLedgerUseCases(deps), exports: new ExportUseCases(deps), accruals: new AccrualUseCases(deps), postings: new PostingUseCases(deps), openingBalances: new OpeningBalanceUseCases(deps) };
}
