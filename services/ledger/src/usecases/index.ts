import { AccrualUseCases } from './accruals.js';
import { BankTieOutUseCases } from './bank-tieout.js';
import { CategorisationUseCases } from './categorisation.js';
import { CategoryUseCases } from './categories.js';
import { CommentUseCases } from './comments.js';
import type { LedgerDeps } from './context.js';
import { ExportUseCases } from './export.js';
import { GeneralLedgerUseCases } from './general-ledger.js';
import { OpeningBalanceUseCases } from './opening-balances.js';
import { DocumentPostingUseCases } from './document-postings.js';
import { PartyCreditUseCases } from './party-credits.js';
import { PostingUseCases } from './posting.js';
import { ReceiptUseCases } from './receipts.js';
import { TransactionUseCases } from './transactions.js';
import { TransferUseCases } from './transfers.js';
import { VendorLinkUseCases } from './vendors.js';
import { VendorRuleUseCases } from './vendor-rules.js';

export interface LedgerUseCases {
  categories: CategoryUseCases;
  transactions: TransactionUseCases;
  generalLedger: GeneralLedgerUseCases;
  exports: ExportUseCases;
  accruals: AccrualUseCases;
  postings: PostingUseCases;
  partyCredits: PartyCreditUseCases;
  documentPostings: DocumentPostingUseCases;
  openingBalances: OpeningBalanceUseCases;
  tieOut: BankTieOutUseCases;
  transfers: TransferUseCases;
  receipts: ReceiptUseCases;
  comments: CommentUseCases;
  vendors: VendorLinkUseCases;
  vendorRules: VendorRuleUseCases;
  categorisation: CategorisationUseCases;
}

export function createUseCases(deps: LedgerDeps): LedgerUseCases {
  return {
    categories: new CategoryUseCases(deps),
    transactions: new TransactionUseCases(deps),
    generalLedger: new GeneralLedgerUseCases(deps),
    exports: new ExportUseCases(deps),
    accruals: new AccrualUseCases(deps),
    postings: new PostingUseCases(deps),
    openingBalances: new OpeningBalanceUseCases(deps),
    tieOut: new BankTieOutUseCases(deps),
    transfers: new TransferUseCases(deps),
    receipts: new ReceiptUseCases(deps),
    comments: new CommentUseCases(deps),
    vendors: new VendorLinkUseCases(deps),
    partyCredits: new PartyCreditUseCases(deps),
    documentPostings: new DocumentPostingUseCases(deps),
    vendorRules: new VendorRuleUseCases(deps),
    categorisation: new CategorisationUseCases(deps),
  };
}
