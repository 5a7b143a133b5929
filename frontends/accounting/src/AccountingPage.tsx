/// <reference types="@rsbuild/core/types" />
import './accounting.css';
import { AreaTabs, lazyPage, type AreaPageProps } from '@ledgerline/ui';
import { ImportWatcher } from './drafts/ImportWatcher';

// Each tab's code loads when the tab opens (issue #13: split per screen), behind a skeleton.
const ChartOfAccountsTab = lazyPage(() => import('./accounting/ChartOfAccountsTab').then((m) => m.ChartOfAccountsTab), 'Loading the chart of accounts');
const GeneralLedgerTab = lazyPage(() => import('./accounting/GeneralLedgerTab').then((m) => m.GeneralLedgerTab), 'Loading the general ledger');
const DocumentsTab = lazyPage(() => import('./documents/DocumentsTab').then((m) => m.DocumentsTab), 'Loading the documents');
const FixedAssetsTab = lazyPage(() => import('./assets/FixedAssetsTab').then((m) => m.FixedAssetsTab), 'Loading the fixed assets');
const SchedulesTab = lazyPage(() => import('./schedules/SchedulesTab').then((m) => m.SchedulesTab), 'Loading the schedules');
const ReceiptMatchingTab = lazyPage(() => import('./receipts/ReceiptMatchingTab').then((m) => m.ReceiptMatchingTab), 'Loading the receipts');
const DocumentsOrDrafts = lazyPage(() => import('./drafts/DocumentsOrDrafts').then((m) => m.DocumentsOrDrafts), 'Loading the documents');

const built = {
  coa: () => <ChartOfAccountsTab />,
  ledger: () => <GeneralLedgerTab />,
  'receipt-matching': () => <ReceiptMatchingTab />,
  'manual-journal': () => <DocumentsTab key="manualEntry" kind="manualEntry" />,
  invoices: () => <DocumentsOrDrafts key="invoice" kind="invoice" />,
  bills: () => <DocumentsOrDrafts key="bill" kind="bill" />,
  'fixed-assets': () => <FixedAssetsTab />,
  schedules: () => <SchedulesTab />,
};

/**
 * Exposed as `accounting/AccountingPage` (/accounting): chart of accounts, general ledger, and the documents — manual
 * journals (`?manualJournal=`), invoices (`?invoice=`) and bills (`?bill=`), each with mode view / edit / create;
 * receipt matching (`?filter=` receiptStatus, `?rec=` the receipt being matched); fixed assets (`?fixedAsset=`,
 * mode=create) and the schedules (ledgerAccount, startDate, endDate, view).
 */
export function AccountingPage({ area }: AreaPageProps) {
  return (
    <>
      {/* The import notices of bills and invoices uploaded from any of its tabs (decision 0029). */}
      <ImportWatcher />
      <AreaTabs remote="accounting" area={area} built={built} />
    </>
  );
}
