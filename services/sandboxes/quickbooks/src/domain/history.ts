// Deterministic company histories: the same seed and sizes give the same chart, names and transactions (ids,
// dates, amounts, order), so reverse-sync tests know what they import.
import type { Company } from './company.js';
import { Rng } from './prng.js';
import { addDays, companyDate } from './wire.js';

export interface HistorySize {
  vendors?: number;
  customers?: number;
  bills?: number;
  invoices?: number;
  journalEntries?: number;
  purchases?: number;
  deposits?: number;
}

export interface HistoryOptions extends HistorySize {
  seed?: number | string;
  /** Days of history ending at the company's "today" (default 365). */
  days?: number;
}

export const DEFAULT_HISTORY: Required<HistorySize> = { vendors: 8, customers: 6, bills: 12, invoices: 12, journalEntries: 4, purchases: 10, deposits: 4 };
/** The most entities of one kind a generated history holds. */
export const MAX_GENERATED_PER_KIND = 100_000;

/** The chart every company starts with (name, type, sub-type), close to a new QBO company's. */
export const CHART: ReadonlyArray<readonly [string, string, string]> = [
  ['Checking', 'Bank', 'Checking'],
  ['Savings', 'Bank', 'Savings'],
  ['Accounts Receivable (A/R)', 'Accounts Receivable', 'AccountsReceivable'],
  ['Undeposited Funds', 'Other Current Asset', 'UndepositedFunds'],
  ['Prepaid Expenses', 'Other Current Asset', 'PrepaidExpenses'],
  ['Computers and Equipment', 'Fixed Asset', 'MachineryAndEquipment'],
  ['Accounts Payable (A/P)', 'Accounts Payable', 'AccountsPayable'],
  ['Company Credit Card', 'Credit Card', 'CreditCard'],
  ['Payroll Liabilities', 'Other Current Liability', 'PayrollTaxPayable'],
  ['Loan Payable', 'Long Term Liability', 'NotesPayable'],
  ["Owner's Investment", 'Equity', 'OwnersEquity'],
  ['Retained Earnings', 'Equity', 'RetainedEarnings'],
  ['Opening Balance Equity', 'Equity', 'OpeningBalanceEquity'],
  ['Services', 'Income', 'ServiceFeeIncome'],
  ['Subscription Revenue', 'Income', 'SalesOfProductIncome'],
  ['Interest Earned', 'Other Income', 'InterestEarned'],
  ['Cost of Services', 'Cost of Goods Sold', 'CostOfLaborCos'],
  ['Advertising & Marketing', 'Expense', 'AdvertisingPromotional'],
  ['Bank Charges & Fees', 'Expense', 'BankCharges'],
  ['Contractors', 'Expense', 'CostOfLabor'],
  ['Insurance', 'Expense', 'Insurance'],
  ['Legal & Professional Services', 'Expense', 'LegalProfessionalFees'],
  ['Meals with Clients', 'Expense', 'EntertainmentMeals'],
  ['Office Supplies & Software', 'Expense', 'OfficeGeneralAdministrativeExpenses'],
  ['Rent & Lease', 'Expense', 'RentOrLeaseOfBuildings'],
  ['Travel', 'Expense', 'Travel'],
  ['Utilities', 'Expense', 'Utilities'],
  ['Payroll Expenses', 'Expense', 'PayrollExpenses'],
];

const EXPENSE_ACCOUNTS = [
  'Advertising & Marketing',
  'Contractors',
  'Insurance',
  'Legal & Professional Services',
  'Meals with Clients',
  'Office Supplies & Software',
  'Rent & Lease',
  'Travel',
  'Utilities',
];
const VENDOR_NAMES = [
  'Amazon Web Services',
  'Google Workspace',
  'Gusto',
  'WeWork',
  'Comcast Business',
  'Delta Air Lines',
  'Staples',
  'Cooley LLP',
  'Hiscox Insurance',
  'Figma',
  'Slack Technologies',
  'Uber for Business',
  'Pacific Gas & Electric',
  'Upwork',
  'LinkedIn Ads',
];
const CUSTOMER_NAMES = [
  'Acme Robotics',
  'Blue Harbor Foods',
  'Cedar & Pine Studio',
  'Driftwood Analytics',
  'Evergreen Clinics',
  'Foxglove Media',
  'Granite Peak Capital',
  'Harbor Lights Hotel',
  'Ironbark Logistics',
  'Juniper Schools',
];
const GIVEN = ['Amy', 'Ben', 'Carla', 'Dev', 'Elena', 'Femi', 'Grace', 'Hiro', 'Ines', 'Jon'];
const FAMILY = ['Nguyen', 'Okafor', 'Schmidt', 'Rossi', 'Patel', 'Garcia', 'Kim', 'Cohen', 'Silva', 'Brown'];

/** The accounts and the two sample items every company has. */
export function seedChart(company: Company, at: Date): void {
  for (const [Name, AccountType, AccountSubType] of CHART) company.insertGenerated('Account', { Name, AccountType, AccountSubType }, at);
  const income = company.list('Account').find((a) => a.data.Name === 'Services')!;
  company.insertGenerated('Item', { Name: 'Services', IncomeAccountRef: { value: income.id }, UnitPrice: 0 }, at);
  company.insertGenerated('Item', { Name: 'Hours', IncomeAccountRef: { value: income.id }, UnitPrice: 150 }, at);
}

/** Fills a company (with its chart) with a generated history. */
export function generateHistory(company: Company, options: HistoryOptions, now: Date): void {
  const rng = new Rng(options.seed ?? 1);
  const size = { ...DEFAULT_HISTORY, ...pickSizes(options) };
  const days = options.days ?? 365;
  const today = companyDate(now);
  const start = addDays(today, -days);
  const accountIds = new Map(company.list('Account').map((a) => [String(a.data.Name), a.id]));
  const account = (name: string) => ({ value: accountIds.get(name)! });
  const createdAt = (date: string) => new Date(Math.min(Date.parse(`${date}T17:00:00Z`), now.getTime()));
  const day = () => addDays(start, rng.int(0, days));

  const vendors = [];
  for (let i = 0; i < size.vendors; i++) {
    const base = VENDOR_NAMES[i % VENDOR_NAMES.length]!;
    const name = i < VENDOR_NAMES.length ? base : `${base} ${Math.floor(i / VENDOR_NAMES.length) + 1}`;
    const email = `billing${i + 1}@${base.toLowerCase().replace(/[^a-z]+/g, '')}.example`;
    vendors.push(company.insertGenerated('Vendor', { DisplayName: name, CompanyName: name, PrimaryEmailAddr: { Address: email } }, createdAt(start)));
  }
  const customers = [];
  for (let i = 0; i < size.customers; i++) {
    const base = CUSTOMER_NAMES[i % CUSTOMER_NAMES.length]!;
    const name = i < CUSTOMER_NAMES.length ? base : `${base} ${Math.floor(i / CUSTOMER_NAMES.length) + 1}`;
    customers.push(
      company.insertGenerated(
        'Customer',
        {
          DisplayName: name,
          CompanyName: name,
          GivenName: GIVEN[i % GIVEN.length],
          FamilyName: FAMILY[(i * 7) % FAMILY.length],
          PrimaryEmailAddr: { Address: `ap${i + 1}@customer.example` },
        },
        createdAt(start),
      ),
    );
  }

  // Transactions in date order, so Id order follows TxnDate as in a company kept day by day.
  type Planned = { date: string; make: () => [Parameters<Company['insertGenerated']>[0], Record<string, unknown>] };
  const planned: Planned[] = [];
  const cents = (min: number, max: number) => rng.int(min * 100, max * 100) / 100;
  for (let i = 0; i < size.bills && vendors.length > 0; i++) {
    const date = day();
    const vendor = rng.pick(vendors);
    const lines = rng.int(1, 3);
    const Line = Array.from({ length: lines }, () => ({
      Amount: cents(20, 4000),
      DetailType: 'AccountBasedExpenseLineDetail',
      AccountBasedExpenseLineDetail: { AccountRef: account(rng.pick(EXPENSE_ACCOUNTS)) },
    }));
    const docNumber = `B-${10000 + i}`;
    planned.push({ date, make: () => ['Bill', { VendorRef: { value: vendor.id }, TxnDate: date, DueDate: addDays(date, 30), DocNumber: docNumber, Line }] });
  }
  for (let i = 0; i < size.invoices && customers.length > 0; i++) {
    const date = day();
    const customer = rng.pick(customers);
    const qty = rng.int(1, 40);
    const Line = [
      {
        Amount: qty * 150,
        Description: 'Consulting hours',
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: { ItemRef: { value: '2' }, Qty: qty, UnitPrice: 150 },
      },
    ];
    planned.push({ date, make: () => ['Invoice', { CustomerRef: { value: customer.id }, TxnDate: date, Line }] });
  }
  for (let i = 0; i < size.journalEntries; i++) {
    const date = day();
    const amount = cents(100, 5000);
    const Line = [
      {
        Amount: amount,
        Description: 'Prepaid expense recognised',
        DetailType: 'JournalEntryLineDetail',
        JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: account(rng.pick(['Insurance', 'Rent & Lease'])) },
      },
      {
        Amount: amount,
        Description: 'Prepaid expense recognised',
        DetailType: 'JournalEntryLineDetail',
        JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: account('Prepaid Expenses') },
      },
    ];
    planned.push({ date, make: () => ['JournalEntry', { TxnDate: date, DocNumber: `JE-${i + 1}`, Line }] });
  }
  for (let i = 0; i < size.purchases; i++) {
    const date = day();
    const card = rng.next() < 0.6;
    const vendor = vendors.length > 0 ? rng.pick(vendors) : undefined;
    const Line = [
      {
        Amount: cents(5, 900),
        DetailType: 'AccountBasedExpenseLineDetail',
        AccountBasedExpenseLineDetail: { AccountRef: account(rng.pick(EXPENSE_ACCOUNTS)) },
      },
    ];
    planned.push({
      date,
      make: () => [
        'Purchase',
        {
          PaymentType: card ? 'CreditCard' : 'Check',
          AccountRef: account(card ? 'Company Credit Card' : 'Checking'),
          ...(vendor ? { EntityRef: { value: vendor.id, type: 'Vendor' } } : {}),
          TxnDate: date,
          Line,
        },
      ],
    });
  }
  for (let i = 0; i < size.deposits; i++) {
    const date = day();
    const Line = [
      {
        Amount: cents(500, 20000),
        DetailType: 'DepositLineDetail',
        DepositLineDetail: { AccountRef: account(rng.pick(['Services', 'Subscription Revenue', 'Interest Earned'])) },
      },
    ];
    planned.push({ date, make: () => ['Deposit', { DepositToAccountRef: account('Checking'), TxnDate: date, Line }] });
  }
  planned.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const p of planned) {
    const [type, body] = p.make();
    company.insertGenerated(type, body, createdAt(p.date));
  }
}

function pickSizes(options: HistoryOptions): HistorySize {
  const out: HistorySize = {};
  for (const key of Object.keys(DEFAULT_HISTORY) as (keyof HistorySize)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 0 || value > MAX_GENERATED_PER_KIND)
      throw new RangeError(`${key} must be an integer from 0 to ${MAX_GENERATED_PER_KIND}`);
    out[key] = value;
  }
  return out;
}
