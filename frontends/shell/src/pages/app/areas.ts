// The areas later issues build. Each names, per spec §2 tab, what will be there, so nothing pretends to have data.
export interface AreaTab {
  value: string;
  label: string;
  /** What the tab will show once built. */
  coming: string;
}

export interface Area {
  path: string;
  title: string;
  description: string;
  tabs: readonly AreaTab[];
}

export const areas = {
  expenses: {
    path: '/expenses',
    title: 'Expenses',
    description: 'Where the money goes.',
    tabs: [
      { value: 'spendings', label: 'Spendings', coming: 'Spending by category and top merchants over the period you choose.' },
      { value: 'vendor-credit', label: 'Vendor Credit', coming: 'Credits your vendors owe you, and where they were applied.' },
    ],
  },
  transactions: {
    path: '/transactions',
    title: 'Transactions',
    description: 'Review, categorise and finalize what your bank accounts imported.',
    tabs: [
      { value: 'review', label: 'Review', coming: 'Imported bank transactions waiting for a category, a split, an accrual or a receipt.' },
      { value: 'finalized', label: 'Finalized', coming: 'Transactions you have reviewed and locked.' },
      { value: 'all', label: 'All', coming: 'Every transaction across your connected accounts, with filters.' },
      { value: 'rules', label: 'Rules', coming: 'Rules that categorise transactions from a vendor automatically.' },
      { value: 'vendors', label: 'Vendors', coming: 'The vendors found in your transactions and their default categories.' },
    ],
  },
  revenue: {
    path: '/revenue',
    title: 'Revenue',
    description: 'Income from your payment processor, recognised over time.',
    tabs: [
      { value: 'overview', label: 'Overview', coming: 'Revenue, refunds and fees from your payment processor.' },
      { value: 'revenue-recognition', label: 'Revenue Recognition', coming: 'Deferred revenue schedules and what is recognised each month.' },
      { value: 'transactions', label: 'Transactions', coming: 'Charges, refunds and fees synced from the payment processor.' },
      { value: 'payouts', label: 'Payouts', coming: 'Payouts to your bank account, matched to bank transactions.' },
      { value: 'customers', label: 'Customers', coming: 'Your customers and what each has paid.' },
      { value: 'credit-memo', label: 'Credit Memo', coming: 'Credits issued to customers.' },
      { value: 'plans', label: 'Plans', coming: 'Subscription plans sold through the payment processor.' },
    ],
  },
  accounting: {
    path: '/accounting',
    title: 'Accounting',
    description: 'The books: chart of accounts, ledger, journals and documents.',
    tabs: [
      { value: 'coa', label: 'Chart of Accounts', coming: 'Your accounts in four levels, with balances, ready to add, move and merge.' },
      { value: 'ledger', label: 'General Ledger', coming: 'Every posted line by account, with running balances and drill-down.' },
      { value: 'receipt-matching', label: 'Receipt Matching', coming: 'Uploaded receipts matched to the transactions they explain.' },
      { value: 'schedules', label: 'Schedules', coming: 'Prepaid expense and deferred revenue schedules.' },
      { value: 'manual-journal', label: 'Manual Journal', coming: 'Journal entries you post by hand, and their voids.' },
      { value: 'invoices', label: 'Invoices', coming: 'Invoices you send, their status and the payments against them.' },
      { value: 'bills', label: 'Bills', coming: 'Bills you owe, their due dates and payments.' },
      { value: 'fixed-assets', label: 'Fixed Assets', coming: 'Assets you own and their depreciation.' },
    ],
  },
  reports: {
    path: '/reports',
    title: 'Reports',
    description: 'Financial statements, exportable to CSV, Excel and PDF.',
    tabs: [
      { value: 'balancesheet', label: 'Balance Sheet', coming: 'Assets, liabilities and equity as of any date, by month, quarter or year.' },
      { value: 'pnl', label: 'Profit & Loss', coming: 'Income and expenses over a period, with drill-down to the ledger.' },
      { value: 'cashflow', label: 'Cashflow Statement', coming: 'Cash from operating, investing and financing activities.' },
    ],
  },
} as const satisfies Record<string, Area>;
