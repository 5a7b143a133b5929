// The sandbox's fixed world: institutions (Plaid's own sandbox institution ids and names), their accounts,
// and the merchants generated transactions are drawn from.

export type AccountKind = 'checking' | 'savings' | 'credit';

export interface AccountTemplate {
  readonly key: string;
  readonly kind: AccountKind;
  readonly name: string;
  readonly officialName: string;
  readonly mask: string;
  /** Share of the item's generated transactions that land on this account. */
  readonly weight: number;
}

export interface Institution {
  readonly institutionId: string;
  readonly name: string;
  readonly url: string;
  readonly primaryColor: string;
  readonly routingNumbers: readonly string[];
  readonly accounts: readonly AccountTemplate[];
}

const checking = (name: string, officialName: string, mask: string, weight = 55): AccountTemplate => ({
  key: `checking-${mask}`,
  kind: 'checking',
  name,
  officialName,
  mask,
  weight,
});
const savings = (name: string, officialName: string, mask: string, weight = 8): AccountTemplate => ({
  key: `savings-${mask}`,
  kind: 'savings',
  name,
  officialName,
  mask,
  weight,
});
const credit = (name: string, officialName: string, mask: string, weight = 37): AccountTemplate => ({
  key: `credit-${mask}`,
  kind: 'credit',
  name,
  officialName,
  mask,
  weight,
});

export const INSTITUTIONS: readonly Institution[] = [
  {
    institutionId: 'ins_109508',
    name: 'First Platypus Bank',
    url: 'https://www.plaid.com',
    primaryColor: '#1f1f1f',
    routingNumbers: ['011000138'],
    accounts: [
      checking('Plaid Checking', 'Plaid Gold Standard 0% Interest Checking', '0000'),
      savings('Plaid Saving', 'Plaid Silver Standard 0.1% Interest Saving', '1111'),
      credit('Plaid Credit Card', 'Plaid Diamond 12.5% APR Interest Credit Card', '3333'),
    ],
  },
  {
    institutionId: 'ins_109509',
    name: 'First Gingham Credit Union',
    url: 'https://www.plaid.com',
    primaryColor: '#2f6f4f',
    routingNumbers: ['021000021'],
    accounts: [
      checking('Gingham Checking', 'Gingham Share Draft Checking', '4321', 80),
      savings('Gingham Savings', 'Gingham Regular Share Savings', '8765', 20),
    ],
  },
  {
    institutionId: 'ins_109510',
    name: 'Tattersall Federal Credit Union',
    url: 'https://www.plaid.com',
    primaryColor: '#7a3b2e',
    routingNumbers: ['031176110'],
    accounts: [
      checking('Tattersall Business Checking', 'Tattersall Small Business Checking', '5501'),
      credit('Tattersall Visa Business', 'Tattersall Visa Business Rewards Card', '7702', 45),
    ],
  },
  {
    institutionId: 'ins_109511',
    name: 'Tartan Bank',
    url: 'https://www.plaid.com',
    primaryColor: '#b22222',
    routingNumbers: ['071000013'],
    accounts: [
      checking('Tartan Operating', 'Tartan Business Operating Checking', '2468', 40),
      checking('Tartan Payroll', 'Tartan Business Payroll Checking', '1357', 15),
      savings('Tartan Reserve', 'Tartan Business Money Reserve Savings', '9090', 8),
      credit('Tartan Business Card', 'Tartan Business Platinum Card', '6006', 37),
    ],
  },
  {
    institutionId: 'ins_109512',
    name: 'Houndstooth Bank',
    url: 'https://www.plaid.com',
    primaryColor: '#333366',
    routingNumbers: ['091000019'],
    accounts: [
      checking('Houndstooth Checking', 'Houndstooth Premier Business Checking', '3141'),
      savings('Houndstooth Savings', 'Houndstooth High Yield Business Savings', '2718'),
      credit('Houndstooth Card', 'Houndstooth Business Cash Rewards Card', '1618', 25),
      credit('Houndstooth Travel Card', 'Houndstooth Business Travel Card', '1414', 12),
    ],
  },
];

export function findInstitution(institutionId: string): Institution | undefined {
  return INSTITUTIONS.find((i) => i.institutionId === institutionId);
}

export type Channel = 'online' | 'in store' | 'other';
export type TxnType = 'digital' | 'place' | 'special' | 'unresolved';

export interface Merchant {
  /** The bank's descriptor (`name`). */
  readonly descriptor: string;
  /** Clean merchant name, or null for bank-originated lines (fees, transfers, interest). */
  readonly merchantName: string | null;
  readonly website: string | null;
  readonly pfcPrimary: string;
  readonly pfcDetailed: string;
  readonly legacyCategory: readonly string[];
  readonly legacyCategoryId: string;
  readonly channel: Channel;
  readonly type: TxnType;
  readonly transactionCode: string | null;
  /** Amount range in cents; positive is money leaving the account (Plaid's sign convention). */
  readonly minCents: number;
  readonly maxCents: number;
  /** Negative amounts (money in). */
  readonly inflow: boolean;
  readonly kinds: readonly AccountKind[];
  readonly weight: number;
  /** A restaurant-like merchant whose posted amount may differ from the pending one (tip). */
  readonly tips?: boolean;
  /** Shown as the counterparty type. */
  readonly counterparty: 'merchant' | 'financial_institution' | 'payment_app' | 'marketplace' | 'payment_terminal' | null;
}

type MerchantInput = Omit<Merchant, 'inflow' | 'counterparty' | 'transactionCode'> & Partial<Pick<Merchant, 'inflow' | 'counterparty' | 'transactionCode'>>;
const m = (input: MerchantInput): Merchant => ({ inflow: false, counterparty: 'merchant', transactionCode: null, ...input });

const CARD: readonly AccountKind[] = ['checking', 'credit'];
const SOFTWARE = {
  pfcPrimary: 'GENERAL_SERVICES',
  pfcDetailed: 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
  legacyCategory: ['Service', 'Computers'],
  legacyCategoryId: '18018000',
  channel: 'online',
  type: 'digital',
  kinds: CARD,
} as const;
const ADS = {
  pfcPrimary: 'GENERAL_SERVICES',
  pfcDetailed: 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
  legacyCategory: ['Service', 'Advertising and Marketing'],
  legacyCategoryId: '18001000',
  channel: 'online',
  type: 'digital',
  kinds: CARD,
} as const;
const RIDE = {
  pfcPrimary: 'TRANSPORTATION',
  pfcDetailed: 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES',
  legacyCategory: ['Travel', 'Taxi'],
  legacyCategoryId: '22016000',
  channel: 'online',
  type: 'special',
  kinds: CARD,
} as const;
const FLIGHT = {
  pfcPrimary: 'TRAVEL',
  pfcDetailed: 'TRAVEL_FLIGHTS',
  legacyCategory: ['Travel', 'Airlines and Aviation Services'],
  legacyCategoryId: '22001000',
  channel: 'online',
  type: 'special',
  kinds: CARD,
} as const;
const LODGING = {
  pfcPrimary: 'TRAVEL',
  pfcDetailed: 'TRAVEL_LODGING',
  legacyCategory: ['Travel', 'Lodging'],
  legacyCategoryId: '22012000',
  type: 'place',
  kinds: CARD,
} as const;
const RESTAURANT = {
  pfcPrimary: 'FOOD_AND_DRINK',
  pfcDetailed: 'FOOD_AND_DRINK_RESTAURANT',
  legacyCategory: ['Food and Drink', 'Restaurants'],
  legacyCategoryId: '13005000',
  channel: 'in store',
  type: 'place',
  kinds: CARD,
  tips: true,
} as const;
const COFFEE = {
  pfcPrimary: 'FOOD_AND_DRINK',
  pfcDetailed: 'FOOD_AND_DRINK_COFFEE',
  legacyCategory: ['Food and Drink', 'Restaurants', 'Coffee Shop'],
  legacyCategoryId: '13005043',
  channel: 'in store',
  type: 'place',
  kinds: CARD,
} as const;
const GAS = {
  pfcPrimary: 'TRANSPORTATION',
  pfcDetailed: 'TRANSPORTATION_GAS',
  legacyCategory: ['Travel', 'Gas Stations'],
  legacyCategoryId: '22009000',
  channel: 'in store',
  type: 'place',
  kinds: CARD,
} as const;
const SHIPPING = {
  pfcPrimary: 'GENERAL_SERVICES',
  pfcDetailed: 'GENERAL_SERVICES_POSTAGE_AND_SHIPPING',
  legacyCategory: ['Service', 'Shipping and Freight'],
  legacyCategoryId: '18050000',
  channel: 'in store',
  type: 'place',
  kinds: CARD,
} as const;

export const MERCHANTS: readonly Merchant[] = [
  m({
    ...SOFTWARE,
    descriptor: 'AMAZON WEB SERVICES AWS.AMAZON.CO WA',
    merchantName: 'Amazon Web Services',
    website: 'aws.amazon.com',
    minCents: 4_900,
    maxCents: 480_000,
    weight: 6,
  }),
  m({
    ...SOFTWARE,
    descriptor: 'GOOGLE *GSUITE CC@GOOGLE.COM',
    merchantName: 'Google Workspace',
    website: 'workspace.google.com',
    minCents: 1_200,
    maxCents: 36_000,
    weight: 4,
  }),
  m({ ...SOFTWARE, descriptor: 'SLACK T02ABCD3E DUBLIN', merchantName: 'Slack', website: 'slack.com', minCents: 875, maxCents: 42_000, weight: 3 }),
  m({ ...SOFTWARE, descriptor: 'GITHUB, INC. HTTPSGITHUB.C CA', merchantName: 'GitHub', website: 'github.com', minCents: 400, maxCents: 21_000, weight: 3 }),
  m({ ...SOFTWARE, descriptor: 'ZOOM.US 888-799-9666 CA', merchantName: 'Zoom', website: 'zoom.us', minCents: 1_499, maxCents: 19_990, weight: 2 }),
  m({ ...SOFTWARE, descriptor: 'FIGMA MONTHLY RENEWAL', merchantName: 'Figma', website: 'figma.com', minCents: 1_500, maxCents: 22_500, weight: 2 }),
  m({ ...SOFTWARE, descriptor: 'NOTION LABS, INC.', merchantName: 'Notion', website: 'notion.so', minCents: 800, maxCents: 12_000, weight: 2 }),
  m({
    ...SOFTWARE,
    descriptor: 'ADOBE *CREATIVE CLOUD 408-536-6000 CA',
    merchantName: 'Adobe',
    website: 'adobe.com',
    minCents: 2_299,
    maxCents: 8_999,
    weight: 1,
  }),
  m({ ...SOFTWARE, descriptor: 'DROPBOX*1A2B3C4D5E6F', merchantName: 'Dropbox', website: 'dropbox.com', minCents: 1_199, maxCents: 9_000, weight: 1 }),
  m({
    ...SOFTWARE,
    descriptor: 'SALESFORCE.COM 415-901-7000',
    merchantName: 'Salesforce',
    website: 'salesforce.com',
    minCents: 7_500,
    maxCents: 150_000,
    weight: 1,
  }),
  m({ ...ADS, descriptor: 'GOOGLE *ADS1234567890', merchantName: 'Google Ads', website: 'ads.google.com', minCents: 5_000, maxCents: 350_000, weight: 3 }),
  m({ ...ADS, descriptor: 'FACEBK *ADS 650-543-4800', merchantName: 'Meta', website: 'meta.com', minCents: 2_500, maxCents: 250_000, weight: 2 }),
  m({ ...ADS, descriptor: 'LINKEDIN *JOBS P12345678', merchantName: 'LinkedIn', website: 'linkedin.com', minCents: 4_999, maxCents: 89_900, weight: 1 }),
  m({ ...RIDE, descriptor: 'UBER *TRIP HELP.UBER.COM', merchantName: 'Uber', website: 'uber.com', minCents: 745, maxCents: 9_800, weight: 6 }),
  m({ ...RIDE, descriptor: 'LYFT *RIDE SUN 7PM', merchantName: 'Lyft', website: 'lyft.com', minCents: 690, maxCents: 7_400, weight: 3 }),
  m({ ...FLIGHT, descriptor: 'DELTA AIR LINES 0062345678901', merchantName: 'Delta', website: 'delta.com', minCents: 12_900, maxCents: 98_000, weight: 2 }),
  m({
    ...FLIGHT,
    descriptor: 'UNITED 0162345678901 800-932-2732 TX',
    merchantName: 'United Airlines',
    website: 'united.com',
    minCents: 11_800,
    maxCents: 112_000,
    weight: 2,
  }),
  m({
    ...LODGING,
    descriptor: 'MARRIOTT SAN FRANCISCO UNION SQ',
    merchantName: 'Marriott',
    website: 'marriott.com',
    channel: 'in store',
    minCents: 18_900,
    maxCents: 92_000,
    weight: 1,
  }),
  m({
    ...LODGING,
    descriptor: 'HILTON HOTELS NEW YORK MIDTOWN',
    merchantName: 'Hilton',
    website: 'hilton.com',
    channel: 'in store',
    minCents: 16_500,
    maxCents: 88_000,
    weight: 1,
  }),
  m({
    ...LODGING,
    descriptor: 'AIRBNB * HMABCD1234',
    merchantName: 'Airbnb',
    website: 'airbnb.com',
    channel: 'online',
    minCents: 14_000,
    maxCents: 160_000,
    weight: 1,
  }),
  m({ ...COFFEE, descriptor: 'STARBUCKS STORE 05432', merchantName: 'Starbucks', website: 'starbucks.com', minCents: 325, maxCents: 4_800, weight: 8 }),
  m({
    ...COFFEE,
    descriptor: 'BLUE BOTTLE COFFEE',
    merchantName: 'Blue Bottle Coffee',
    website: 'bluebottlecoffee.com',
    minCents: 450,
    maxCents: 3_200,
    weight: 3,
  }),
  m({ ...RESTAURANT, descriptor: 'SWEETGREEN SOMA', merchantName: 'Sweetgreen', website: 'sweetgreen.com', minCents: 1_195, maxCents: 9_500, weight: 5 }),
  m({ ...RESTAURANT, descriptor: 'CHIPOTLE 1234', merchantName: 'Chipotle Mexican Grill', website: 'chipotle.com', minCents: 995, maxCents: 6_800, weight: 4 }),
  m({ ...RESTAURANT, descriptor: "MCDONALD'S F12345", merchantName: "McDonald's", website: 'mcdonalds.com', minCents: 612, maxCents: 3_200, weight: 2 }),
  m({
    ...RESTAURANT,
    descriptor: 'DOORDASH*TEAM LUNCH',
    merchantName: 'DoorDash',
    website: 'doordash.com',
    channel: 'online',
    type: 'digital',
    minCents: 2_400,
    maxCents: 48_000,
    weight: 4,
  }),
  m({
    descriptor: 'STAPLES 00123',
    merchantName: 'Staples',
    website: 'staples.com',
    pfcPrimary: 'GENERAL_MERCHANDISE',
    pfcDetailed: 'GENERAL_MERCHANDISE_OFFICE_SUPPLIES',
    legacyCategory: ['Shops', 'Office Supplies'],
    legacyCategoryId: '19054000',
    channel: 'in store',
    type: 'place',
    minCents: 899,
    maxCents: 42_000,
    kinds: CARD,
    weight: 2,
  }),
  m({
    descriptor: 'COSTCO WHSE #0144',
    merchantName: 'Costco',
    website: 'costco.com',
    pfcPrimary: 'GENERAL_MERCHANDISE',
    pfcDetailed: 'GENERAL_MERCHANDISE_SUPERSTORES',
    legacyCategory: ['Shops', 'Warehouses and Wholesale Stores'],
    legacyCategoryId: '19051000',
    channel: 'in store',
    type: 'place',
    minCents: 3_500,
    maxCents: 65_000,
    kinds: CARD,
    weight: 2,
  }),
  m({
    descriptor: 'THE HOME DEPOT #0621',
    merchantName: 'The Home Depot',
    website: 'homedepot.com',
    pfcPrimary: 'HOME_IMPROVEMENT',
    pfcDetailed: 'HOME_IMPROVEMENT_HARDWARE',
    legacyCategory: ['Shops', 'Hardware Store'],
    legacyCategoryId: '19030000',
    channel: 'in store',
    type: 'place',
    minCents: 1_299,
    maxCents: 58_000,
    kinds: CARD,
    weight: 1,
  }),
  m({
    descriptor: 'AMAZON MKTPL*2K4AB1C23',
    merchantName: 'Amazon',
    website: 'amazon.com',
    pfcPrimary: 'GENERAL_MERCHANDISE',
    pfcDetailed: 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES',
    legacyCategory: ['Shops', 'Digital Purchase'],
    legacyCategoryId: '19013000',
    channel: 'online',
    type: 'digital',
    minCents: 799,
    maxCents: 49_000,
    kinds: CARD,
    weight: 6,
    counterparty: 'marketplace',
  }),
  m({
    descriptor: 'AMAZON.COM REFUND',
    merchantName: 'Amazon',
    website: 'amazon.com',
    pfcPrimary: 'GENERAL_MERCHANDISE',
    pfcDetailed: 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES',
    legacyCategory: ['Shops', 'Digital Purchase'],
    legacyCategoryId: '19013000',
    channel: 'online',
    type: 'digital',
    minCents: 799,
    maxCents: 19_000,
    kinds: CARD,
    weight: 1,
    inflow: true,
    counterparty: 'marketplace',
    transactionCode: 'refund',
  }),
  m({ ...SHIPPING, descriptor: 'FEDEX 781234567', merchantName: 'FedEx', website: 'fedex.com', minCents: 1_150, maxCents: 21_000, weight: 2 }),
  m({
    ...SHIPPING,
    descriptor: 'USPS PO 0555920123',
    merchantName: 'United States Postal Service',
    website: 'usps.com',
    minCents: 68,
    maxCents: 6_500,
    weight: 1,
  }),
  m({ ...GAS, descriptor: 'SHELL OIL 57444123', merchantName: 'Shell', website: 'shell.com', minCents: 2_200, maxCents: 9_500, weight: 2 }),
  m({ ...GAS, descriptor: 'CHEVRON 0098765', merchantName: 'Chevron', website: 'chevron.com', minCents: 2_500, maxCents: 10_200, weight: 2 }),
  m({
    descriptor: 'WEWORK MEMBERSHIP',
    merchantName: 'WeWork',
    website: 'wework.com',
    pfcPrimary: 'RENT_AND_UTILITIES',
    pfcDetailed: 'RENT_AND_UTILITIES_RENT',
    legacyCategory: ['Service', 'Real Estate', 'Rent'],
    legacyCategoryId: '18045001',
    channel: 'online',
    type: 'special',
    minCents: 45_000,
    maxCents: 450_000,
    kinds: CARD,
    weight: 1,
  }),
  m({
    descriptor: 'COMCAST BUSINESS 800-391-3000',
    merchantName: 'Comcast Business',
    website: 'business.comcast.com',
    pfcPrimary: 'RENT_AND_UTILITIES',
    pfcDetailed: 'RENT_AND_UTILITIES_INTERNET_AND_CABLE',
    legacyCategory: ['Service', 'Cable'],
    legacyCategoryId: '18009000',
    channel: 'online',
    type: 'special',
    minCents: 8_999,
    maxCents: 24_999,
    kinds: CARD,
    weight: 1,
  }),
  m({
    descriptor: 'VZWRLSS*APOCC VISB',
    merchantName: 'Verizon',
    website: 'verizon.com',
    pfcPrimary: 'RENT_AND_UTILITIES',
    pfcDetailed: 'RENT_AND_UTILITIES_TELEPHONE',
    legacyCategory: ['Service', 'Telecommunication Services'],
    legacyCategoryId: '18063000',
    channel: 'online',
    type: 'special',
    minCents: 6_000,
    maxCents: 42_000,
    kinds: CARD,
    weight: 1,
  }),
  m({
    descriptor: 'PGANDE WEB ONLINE',
    merchantName: 'PG&E',
    website: 'pge.com',
    pfcPrimary: 'RENT_AND_UTILITIES',
    pfcDetailed: 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY',
    legacyCategory: ['Service', 'Utilities', 'Electric'],
    legacyCategoryId: '18068001',
    channel: 'online',
    type: 'special',
    minCents: 8_000,
    maxCents: 64_000,
    kinds: ['checking'],
    weight: 1,
  }),
  // Bank-account-only lines.
  m({
    descriptor: 'GUSTO PAYROLL 12AB34 CCD',
    merchantName: 'Gusto',
    website: 'gusto.com',
    pfcPrimary: 'GENERAL_SERVICES',
    pfcDetailed: 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
    legacyCategory: ['Transfer', 'Payroll'],
    legacyCategoryId: '21009000',
    channel: 'other',
    type: 'special',
    minCents: 300_000,
    maxCents: 4_500_000,
    kinds: ['checking'],
    weight: 2,
    counterparty: 'payment_app',
    transactionCode: 'direct debit',
  }),
  m({
    descriptor: 'ACH DEBIT MISSION ST PROPERTIES RENT',
    merchantName: null,
    website: null,
    pfcPrimary: 'RENT_AND_UTILITIES',
    pfcDetailed: 'RENT_AND_UTILITIES_RENT',
    legacyCategory: ['Payment', 'Rent'],
    legacyCategoryId: '16002000',
    channel: 'other',
    type: 'special',
    minCents: 250_000,
    maxCents: 1_200_000,
    kinds: ['checking'],
    weight: 1,
    counterparty: null,
    transactionCode: 'direct debit',
  }),
  m({
    descriptor: 'IRS USATAXPYMT 270412345678901',
    merchantName: 'IRS',
    website: 'irs.gov',
    pfcPrimary: 'GOVERNMENT_AND_NON_PROFIT',
    pfcDetailed: 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT',
    legacyCategory: ['Tax', 'Payment'],
    legacyCategoryId: '20002000',
    channel: 'other',
    type: 'special',
    minCents: 50_000,
    maxCents: 1_500_000,
    kinds: ['checking'],
    weight: 1,
    transactionCode: 'bill payment',
  }),
  m({
    descriptor: 'STRIPE TRANSFER ST-A1B2C3D4E5F6',
    merchantName: 'Stripe',
    website: 'stripe.com',
    pfcPrimary: 'INCOME',
    pfcDetailed: 'INCOME_OTHER_INCOME',
    legacyCategory: ['Transfer', 'Deposit'],
    legacyCategoryId: '21007000',
    channel: 'other',
    type: 'special',
    minCents: 50_000,
    maxCents: 2_500_000,
    kinds: ['checking'],
    weight: 6,
    inflow: true,
    counterparty: 'payment_app',
    transactionCode: 'transfer',
  }),
  m({
    descriptor: 'ACH CREDIT ACME CORP INV PAYMENT',
    merchantName: null,
    website: null,
    pfcPrimary: 'INCOME',
    pfcDetailed: 'INCOME_OTHER_INCOME',
    legacyCategory: ['Transfer', 'Credit'],
    legacyCategoryId: '21005000',
    channel: 'other',
    type: 'special',
    minCents: 100_000,
    maxCents: 3_000_000,
    kinds: ['checking'],
    weight: 3,
    inflow: true,
    counterparty: null,
    transactionCode: 'transfer',
  }),
  m({
    descriptor: 'ATM WITHDRAWAL 000123 MARKET ST',
    merchantName: null,
    website: null,
    pfcPrimary: 'TRANSFER_OUT',
    pfcDetailed: 'TRANSFER_OUT_WITHDRAWAL',
    legacyCategory: ['Transfer', 'Withdrawal', 'ATM'],
    legacyCategoryId: '21012002',
    channel: 'in store',
    type: 'special',
    minCents: 2_000,
    maxCents: 40_000,
    kinds: ['checking'],
    weight: 1,
    counterparty: null,
    transactionCode: 'atm',
  }),
  m({
    descriptor: 'MONTHLY SERVICE FEE',
    merchantName: null,
    website: null,
    pfcPrimary: 'BANK_FEES',
    pfcDetailed: 'BANK_FEES_OTHER_BANK_FEES',
    legacyCategory: ['Bank Fees'],
    legacyCategoryId: '10000000',
    channel: 'other',
    type: 'special',
    minCents: 1_500,
    maxCents: 3_500,
    kinds: ['checking'],
    weight: 1,
    counterparty: null,
    transactionCode: 'bank charge',
  }),
  // Savings (transfers to and from checking are generated in pairs, see history.ts).
  m({
    descriptor: 'INTEREST PAYMENT',
    merchantName: null,
    website: null,
    pfcPrimary: 'INCOME',
    pfcDetailed: 'INCOME_INTEREST_EARNED',
    legacyCategory: ['Interest', 'Interest Earned'],
    legacyCategoryId: '15001000',
    channel: 'other',
    type: 'special',
    minCents: 12,
    maxCents: 8_000,
    kinds: ['savings'],
    weight: 3,
    inflow: true,
    counterparty: null,
    transactionCode: 'interest',
  }),
];

// Money moving between an item's own accounts is not drawn from the merchants above: history.ts generates
// both legs of each transfer and card payment together, with these descriptors and Plaid's categories.
export interface TransferStyle {
  /** `name` on the leg that sends the money (positive amount); `{mask}` is the other account's mask. */
  readonly outName: string;
  /** `name` on the leg that receives it (negative amount). */
  readonly inName: string;
  readonly outPfc: string;
  readonly inPfc: string;
  readonly outPrimary: string;
  readonly inPrimary: string;
  readonly legacyCategory: readonly string[];
  readonly legacyCategoryId: string;
  readonly channel: Channel;
  readonly transactionCode: string;
}

const INTERNAL_TRANSFER = {
  legacyCategory: ['Transfer', 'Internal Account Transfer'],
  legacyCategoryId: '21001000',
  channel: 'online',
  transactionCode: 'transfer',
} as const;
const CARD_PAYMENT = {
  outPrimary: 'LOAN_PAYMENTS',
  inPrimary: 'LOAN_PAYMENTS',
  outPfc: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT',
  inPfc: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT',
  legacyCategory: ['Payment', 'Credit Card'],
  legacyCategoryId: '16001000',
  transactionCode: 'bill payment',
} as const;

export const TRANSFER_STYLES = {
  checkingToSavings: {
    ...INTERNAL_TRANSFER,
    outName: 'Online Transfer to Savings ...{mask}',
    inName: 'Online Transfer from Checking ...{mask}',
    outPrimary: 'TRANSFER_OUT',
    outPfc: 'TRANSFER_OUT_SAVINGS',
    inPrimary: 'TRANSFER_IN',
    inPfc: 'TRANSFER_IN_ACCOUNT_TRANSFER',
  },
  savingsToChecking: {
    ...INTERNAL_TRANSFER,
    outName: 'Online Transfer to Checking ...{mask}',
    inName: 'Online Transfer from Savings ...{mask}',
    outPrimary: 'TRANSFER_OUT',
    outPfc: 'TRANSFER_OUT_ACCOUNT_TRANSFER',
    inPrimary: 'TRANSFER_IN',
    inPfc: 'TRANSFER_IN_ACCOUNT_TRANSFER',
  },
  cardAutopay: { ...CARD_PAYMENT, outName: 'CREDIT CARD AUTOPAY PMT ...{mask}', inName: 'AUTOPAY PAYMENT - THANK YOU', channel: 'other' },
  cardPayment: { ...CARD_PAYMENT, outName: 'Payment to Card ...{mask}', inName: 'Payment Thank You', channel: 'online' },
} as const satisfies Record<string, TransferStyle>;

export interface City {
  readonly city: string;
  readonly region: string;
  readonly postalCode: string;
  readonly lat: number;
  readonly lon: number;
}

export const CITIES: readonly City[] = [
  { city: 'San Francisco', region: 'CA', postalCode: '94105', lat: 37.7897, lon: -122.3942 },
  { city: 'New York', region: 'NY', postalCode: '10001', lat: 40.7506, lon: -73.9972 },
  { city: 'Austin', region: 'TX', postalCode: '78701', lat: 30.2711, lon: -97.7437 },
  { city: 'Seattle', region: 'WA', postalCode: '98101', lat: 47.6101, lon: -122.3344 },
  { city: 'Chicago', region: 'IL', postalCode: '60601', lat: 41.8858, lon: -87.6181 },
];
