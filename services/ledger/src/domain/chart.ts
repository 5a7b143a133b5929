/** Spec §3: the class groups (level 1, category_type) of a chart of accounts. */
export const CLASS_GROUPS = ['Assets', 'Liability', 'Income', 'Expenses', 'Transfer', 'Equity'] as const;
export type ClassGroup = (typeof CLASS_GROUPS)[number];

export const MIN_COA_ID = 10_000;

/** Accounts the ledger looks up by purpose rather than by id. */
export const SYSTEM = {
  cash: 'cash',
  creditCards: 'credit_cards',
  uncategorisedIncome: 'uncategorised_income',
  uncategorisedExpense: 'uncategorised_expense',
  retainedEarnings: 'retained_earnings',
  openingBalanceEquity: 'opening_balance_equity',
  prepaidExpenses: 'prepaid_expenses',
  deferredRevenue: 'deferred_revenue',
  /** Transfer class: both sides of money moving between two linked accounts (issue #12). */
  internalTransfers: 'internal_transfers',
  /** Transfer class: both sides of a credit-card payment from a linked account. */
  creditCardPayments: 'credit_card_payments',
} as const;

export interface ChartNode {
  name: string;
  coaId: number;
  systemKey?: string;
  children?: ChartNode[];
}

const leaf = (coaId: number, name: string, systemKey?: string): ChartNode => ({ name, coaId, systemKey });

/**
 * The default chart seeded into every new workspace: level 1 is the class group, level 2 the group,
 * level 3 the categories transactions are booked to. Bank and card accounts are created per linked
 * account at level 4 under Cash and Cash Equivalents / Credit Cards.
 */
export const DEFAULT_CHART: Record<ClassGroup, ChartNode> = {
  Assets: {
    name: 'Assets',
    coaId: 10000,
    children: [
      {
        name: 'Current Assets',
        coaId: 11000,
        children: [
          leaf(11100, 'Cash and Cash Equivalents', SYSTEM.cash),
          leaf(11200, 'Accounts Receivable'),
          leaf(11300, 'Prepaid Expenses', SYSTEM.prepaidExpenses),
          leaf(11400, 'Inventory'),
          leaf(11500, 'Undeposited Funds'),
          leaf(11600, 'Other Current Assets'),
        ],
      },
      {
        name: 'Fixed Assets',
        coaId: 15000,
        children: [leaf(15100, 'Property and Equipment'), leaf(15200, 'Computer Equipment'), leaf(15300, 'Accumulated Depreciation')],
      },
      { name: 'Other Assets', coaId: 17000, children: [leaf(17100, 'Security Deposits'), leaf(17200, 'Intangible Assets')] },
    ],
  },
  Liability: {
    name: 'Liability',
    coaId: 20000,
    children: [
      {
        name: 'Current Liabilities',
        coaId: 21000,
        children: [
          leaf(21100, 'Accounts Payable'),
          leaf(21200, 'Credit Cards', SYSTEM.creditCards),
          leaf(21300, 'Deferred Revenue', SYSTEM.deferredRevenue),
          leaf(21400, 'Accrued Liabilities'),
          leaf(21500, 'Payroll Liabilities'),
          leaf(21600, 'Sales Tax Payable'),
        ],
      },
      { name: 'Long-term Liabilities', coaId: 25000, children: [leaf(25100, 'Loans Payable'), leaf(25200, 'Convertible Notes')] },
    ],
  },
  Equity: {
    name: 'Equity',
    coaId: 30000,
    children: [
      {
        name: "Owner's Equity",
        coaId: 31000,
        children: [
          leaf(31100, 'Common Stock'),
          leaf(31200, 'Additional Paid-in Capital'),
          leaf(31300, 'Owner Contributions'),
          leaf(31400, 'Owner Distributions'),
        ],
      },
      {
        name: 'Earnings',
        coaId: 32000,
        children: [leaf(32100, 'Retained Earnings', SYSTEM.retainedEarnings), leaf(32200, 'Opening Balance Equity', SYSTEM.openingBalanceEquity)],
      },
    ],
  },
  Income: {
    name: 'Income',
    coaId: 40000,
    children: [
      {
        name: 'Operating Income',
        coaId: 41000,
        children: [
          leaf(41100, 'Sales'),
          leaf(41200, 'Service Revenue'),
          leaf(41300, 'Subscription Revenue'),
          leaf(41400, 'Refunds and Discounts'),
          leaf(41900, 'Uncategorised Income', SYSTEM.uncategorisedIncome),
        ],
      },
      { name: 'Other Income', coaId: 42000, children: [leaf(42100, 'Interest Income'), leaf(42200, 'Other Income')] },
    ],
  },
  Expenses: {
    name: 'Expenses',
    coaId: 50000,
    children: [
      {
        name: 'Cost of Goods Sold',
        coaId: 51000,
        children: [leaf(51100, 'Cost of Sales'), leaf(51200, 'Hosting and Infrastructure'), leaf(51300, 'Merchant Fees')],
      },
      {
        name: 'Operating Expenses',
        coaId: 60000,
        children: [
          leaf(60100, 'Advertising and Marketing'),
          leaf(60200, 'Bank Fees'),
          leaf(60300, 'Meals and Entertainment'),
          leaf(60400, 'Office Supplies'),
          leaf(60500, 'Salaries and Wages'),
          leaf(60600, 'Payroll Taxes'),
          leaf(60700, 'Employee Benefits'),
          leaf(60800, 'Legal and Accounting'),
          leaf(60900, 'Rent'),
          leaf(61000, 'Software and Subscriptions'),
          leaf(61100, 'Travel'),
          leaf(61200, 'Utilities'),
          leaf(61300, 'Insurance'),
          leaf(61400, 'Taxes and Licenses'),
          leaf(61500, 'Depreciation Expense'),
          leaf(61600, 'Contractors'),
          leaf(61700, 'Telephone and Internet'),
          leaf(69900, 'Uncategorised Expense', SYSTEM.uncategorisedExpense),
        ],
      },
      { name: 'Other Expenses', coaId: 70000, children: [leaf(70100, 'Interest Expense'), leaf(70200, 'Other Expenses')] },
    ],
  },
  Transfer: {
    name: 'Transfer',
    coaId: 80000,
    children: [
      {
        name: 'Transfers',
        coaId: 81000,
        children: [leaf(81100, 'Internal Transfers', SYSTEM.internalTransfers), leaf(81200, 'Credit Card Payments', SYSTEM.creditCardPayments)],
      },
    ],
  },
};

/** Debit-normal classes show balances as debits − credits; the others as credits − debits. */
export function isDebitNormal(classGroup: string): boolean {
  return classGroup === 'Assets' || classGroup === 'Expenses' || classGroup === 'Transfer';
}

/** A balance in the account's normal direction. */
export function normalBalance(classGroup: string, debitCents: number, creditCents: number): number {
  return isDebitNormal(classGroup) ? debitCents - creditCents : creditCents - debitCents;
}

/** Transactions are booked to categories and sub-categories (levels 3 and 4), never to class groups or groups. */
export function isPostableLevel(level: number): boolean {
  return level >= 3;
}
