// One QuickBooks company (realm): its entities in QBO's JSON shapes, the create / read / update / delete / void
// rules QBO applies, and the change history CDC reads. Pure: the clock is passed in.
import { faults } from './faults.js';
import { addDays, amountCents, companyDate, isObject, money, optBoolean, optDate, optString, qboTime, reqString, type Json } from './wire.js';

export const ENTITY_TYPES = ['Account', 'Vendor', 'Customer', 'Item', 'Bill', 'Invoice', 'JournalEntry', 'Purchase', 'Deposit'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

const NAME_TYPES: readonly EntityType[] = ['Vendor', 'Customer'];
const TXN_TYPES: readonly EntityType[] = ['Bill', 'Invoice', 'JournalEntry', 'Purchase', 'Deposit'];
/** What the API can create and change (Item is read-only here: the sample items every company has). */
export const WRITABLE_TYPES: readonly EntityType[] = ['Account', 'Vendor', 'Customer', 'Bill', 'Invoice', 'JournalEntry', 'Purchase', 'Deposit'];

/** Entity name as it appears in a URL (`/journalentry`) or a query (`from journalEntry`) → its type. */
export function entityTypeOf(name: string): EntityType | undefined {
  const lower = name.toLowerCase();
  return ENTITY_TYPES.find((t) => t.toLowerCase() === lower);
}

export const ACCOUNT_TYPES: Record<string, { classification: string; subType: string }> = {
  Bank: { classification: 'Asset', subType: 'Checking' },
  'Other Current Asset': { classification: 'Asset', subType: 'OtherCurrentAssets' },
  'Fixed Asset': { classification: 'Asset', subType: 'MachineryAndEquipment' },
  'Other Asset': { classification: 'Asset', subType: 'OtherLongTermAssets' },
  'Accounts Receivable': { classification: 'Asset', subType: 'AccountsReceivable' },
  Equity: { classification: 'Equity', subType: 'OwnersEquity' },
  Expense: { classification: 'Expense', subType: 'OtherMiscellaneousServiceCost' },
  'Other Expense': { classification: 'Expense', subType: 'OtherMiscellaneousExpense' },
  'Cost of Goods Sold': { classification: 'Expense', subType: 'SuppliesMaterialsCogs' },
  'Accounts Payable': { classification: 'Liability', subType: 'AccountsPayable' },
  'Credit Card': { classification: 'Liability', subType: 'CreditCard' },
  'Long Term Liability': { classification: 'Liability', subType: 'NotesPayable' },
  'Other Current Liability': { classification: 'Liability', subType: 'OtherCurrentLiabilities' },
  Income: { classification: 'Revenue', subType: 'ServiceFeeIncome' },
  'Other Income': { classification: 'Revenue', subType: 'OtherMiscellaneousIncome' },
};

const USD = { value: 'USD', name: 'United States Dollar' };

export interface StoredEntity {
  type: EntityType;
  id: string;
  syncToken: number;
  createdAt: Date;
  updatedAt: Date;
  deleted: boolean;
  /** The entity's fields without Id, SyncToken, MetaData and what is derived when it is read. */
  data: Json;
}

export type Operation = 'create' | 'update' | 'delete' | 'void';

export class Company {
  readonly entities = new Map<EntityType, Map<string, StoredEntity>>(ENTITY_TYPES.map((t) => [t, new Map()]));
  private nextAccountId = 1;
  private nextNameId = 1;
  private nextItemId = 1;
  private nextTxnId = 1;
  private nextInvoiceNumber = 1001;
  /** Vendors' and customers' display names (trimmed, lower case) → the name: QBO keeps them unique across both. */
  private readonly nameIndex = new Map<string, { type: EntityType; id: string }>();
  /** Open balances of vendors and customers, recomputed after a bill or invoice changes. */
  private nameBalances: Map<string, number> | null = null;
  /** Debits less credits per account id, in cents, over every live transaction; recomputed after one changes. */
  private accountPostings: Map<string, number> | null = null;

  constructor(
    readonly realmId: string,
    readonly companyName: string,
    private readonly now: () => Date,
  ) {}

  // ── reading ───────────────────────────────────────────────────────────────────────────────────────

  find(type: EntityType, id: string): StoredEntity | undefined {
    const entity = this.entities.get(type)?.get(id);
    return entity && !entity.deleted ? entity : undefined;
  }

  read(type: EntityType, id: string): Json {
    const entity = this.find(type, id);
    if (!entity) throw faults.notFound(`${type} ${id}`);
    return this.present(entity);
  }

  /** Live entities of a type in Id order. */
  list(type: EntityType): StoredEntity[] {
    return [...(this.entities.get(type)?.values() ?? [])].filter((e) => !e.deleted).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** Entities of these types changed at or after `since`, deleted ones included (CDC). */
  changedSince(type: EntityType, since: Date): StoredEntity[] {
    return [...(this.entities.get(type)?.values() ?? [])].filter((e) => e.updatedAt >= since).sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime());
  }

  /** The entity as QBO answers it. */
  present(entity: StoredEntity): Json {
    const derived: Json = {};
    if (entity.type === 'Vendor' || entity.type === 'Customer') derived.Balance = money(this.balances().get(`${entity.type}:${entity.id}`) ?? 0);
    if (entity.type === 'Account') {
      const balance = money(this.accountBalance(entity));
      derived.CurrentBalance = balance;
      derived.CurrentBalanceWithSubAccounts = balance;
    }
    return {
      ...entity.data,
      ...derived,
      domain: 'QBO',
      sparse: false,
      Id: entity.id,
      SyncToken: String(entity.syncToken),
      MetaData: { CreateTime: qboTime(entity.createdAt), LastUpdatedTime: qboTime(entity.updatedAt) },
    };
  }

  presentDeleted(entity: StoredEntity): Json {
    return { domain: 'QBO', status: 'Deleted', Id: entity.id, MetaData: { LastUpdatedTime: qboTime(entity.updatedAt) } };
  }

  // ── writing ───────────────────────────────────────────────────────────────────────────────────────

  create(type: EntityType, body: Json): Json {
    if (!WRITABLE_TYPES.includes(type)) throw faults.unsupportedOperation('Create');
    if (body.Id !== undefined && body.Id !== null) throw faults.invalidProperty('Id', 'Id cannot be set on create');
    const data = this.normalize(type, body, undefined);
    const id = this.allocateId(type);
    const at = this.now();
    const entity: StoredEntity = { type, id, syncToken: 0, createdAt: at, updatedAt: at, deleted: false, data };
    this.entities.get(type)!.set(id, entity);
    this.touched(type, entity, undefined);
    return this.present(entity);
  }

  /** Full update (every writable field replaced; omitted ones cleared) or sparse (only the fields sent). */
  update(type: EntityType, body: Json, options: { void?: boolean } = {}): Json {
    if (!WRITABLE_TYPES.includes(type)) throw faults.unsupportedOperation('Update');
    const entity = this.current(type, body);
    if (options.void) return this.void(type, body);
    const sparse = body.sparse === true || body.sparse === 'true';
    const input: Json = sparse ? { ...entity.data, ...body } : body;
    const data = this.normalize(type, input, entity);
    const before = entity.data;
    entity.data = data;
    entity.syncToken += 1;
    entity.updatedAt = this.now();
    this.touched(type, entity, before);
    return this.present(entity);
  }

  delete(type: EntityType, body: Json): Json {
    if (!TXN_TYPES.includes(type)) throw faults.unsupportedOperation('Delete');
    const entity = this.current(type, body);
    entity.deleted = true;
    entity.syncToken += 1;
    entity.updatedAt = this.now();
    this.touched(type);
    return { status: 'Deleted', domain: 'QBO', Id: entity.id };
  }

  /** Voids an invoice: amounts to zero, kept on the books with the note "Voided". */
  void(type: EntityType, body: Json): Json {
    if (type !== 'Invoice') throw faults.unsupportedOperation('Void');
    const entity = this.current(type, body);
    const lines = Array.isArray(entity.data.Line) ? (entity.data.Line as Json[]) : [];
    entity.data = {
      ...entity.data,
      Line: lines.map((line) => {
        const detail = isObject(line.SalesItemLineDetail) ? { ...line.SalesItemLineDetail, Qty: 0, UnitPrice: 0 } : undefined;
        return { ...line, Amount: 0, ...(detail ? { SalesItemLineDetail: detail } : {}) };
      }),
      TotalAmt: 0,
      Balance: 0,
      PrivateNote: 'Voided',
    };
    entity.syncToken += 1;
    entity.updatedAt = this.now();
    this.touched(type);
    return this.present(entity);
  }

  /** The live entity an update or delete names, with its SyncToken checked. */
  private current(type: EntityType, body: Json): StoredEntity {
    const id = body.Id;
    if (id === undefined || id === null || id === '') throw faults.required('Id');
    if (typeof id !== 'string' && typeof id !== 'number') throw faults.invalidProperty('Id');
    const token = body.SyncToken;
    if (token === undefined || token === null || token === '') throw faults.required('SyncToken');
    const entity = this.find(type, String(id));
    if (!entity) throw faults.notFound(`${type} ${String(id)}`);
    if (String(token) !== String(entity.syncToken)) throw faults.stale();
    return entity;
  }

  private allocateId(type: EntityType): string {
    if (type === 'Account') return String(this.nextAccountId++);
    if (type === 'Item') return String(this.nextItemId++);
    if (NAME_TYPES.includes(type)) return String(this.nextNameId++);
    return String(this.nextTxnId++);
  }

  /** Keeps the derived indexes in step after a write (`before`: the entity's data before an update). */
  private touched(type: EntityType, entity?: StoredEntity, before?: Json): void {
    if (type === 'Bill' || type === 'Invoice') this.nameBalances = null;
    if (TXN_TYPES.includes(type)) this.accountPostings = null;
    if (entity && (type === 'Vendor' || type === 'Customer')) {
      if (before) this.nameIndex.delete(nameKey(String(before.DisplayName)));
      this.nameIndex.set(nameKey(String(entity.data.DisplayName)), { type, id: entity.id });
    }
  }

  private balances(): Map<string, number> {
    if (this.nameBalances) return this.nameBalances;
    const totals = new Map<string, number>();
    const add = (key: string, cents: number) => totals.set(key, (totals.get(key) ?? 0) + cents);
    for (const bill of this.list('Bill')) {
      const ref = bill.data.VendorRef as { value: string } | undefined;
      if (ref) add(`Vendor:${ref.value}`, Math.round(Number(bill.data.Balance ?? 0) * 100));
    }
    for (const invoice of this.list('Invoice')) {
      const ref = invoice.data.CustomerRef as { value: string } | undefined;
      if (ref) add(`Customer:${ref.value}`, Math.round(Number(invoice.data.Balance ?? 0) * 100));
    }
    this.nameBalances = totals;
    return totals;
  }

  /**
   * An account's CurrentBalance as QBO reports it: balance-sheet accounts carry their balance in their normal
   * sense (assets debit, liabilities and equity credit); income and expense accounts answer 0.
   */
  private accountBalance(account: StoredEntity): number {
    const classification = account.data.Classification;
    if (classification !== 'Asset' && classification !== 'Liability' && classification !== 'Equity') return 0;
    const net = this.postings().get(account.id) ?? 0;
    return classification === 'Asset' ? net : -net;
  }

  private postings(): Map<string, number> {
    if (this.accountPostings) return this.accountPostings;
    const net = new Map<string, number>();
    const post = (ref: unknown, cents: number) => {
      const id = isObject(ref) ? String(ref.value) : undefined;
      if (id !== undefined && cents !== 0) net.set(id, (net.get(id) ?? 0) + cents);
    };
    const cents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
    const lines = (e: StoredEntity) => (Array.isArray(e.data.Line) ? (e.data.Line as Json[]) : []);
    const detail = (line: Json, type: string): Json => (isObject(line[type]) ? line[type] : {});
    const receivable = [...this.entities.get('Account')!.values()].find((a) => a.data.AccountType === 'Accounts Receivable');
    for (const bill of this.list('Bill')) {
      post(bill.data.APAccountRef, -cents(bill.data.TotalAmt));
      for (const line of lines(bill)) post(detail(line, 'AccountBasedExpenseLineDetail').AccountRef, cents(line.Amount));
    }
    for (const invoice of this.list('Invoice')) {
      if (receivable) post({ value: receivable.id }, cents(invoice.data.TotalAmt));
      for (const line of lines(invoice)) {
        const itemRef = detail(line, 'SalesItemLineDetail').ItemRef;
        const item = isObject(itemRef) ? this.entities.get('Item')!.get(String(itemRef.value)) : undefined;
        if (item) post(item.data.IncomeAccountRef, -cents(line.Amount));
      }
    }
    for (const entry of this.list('JournalEntry')) {
      for (const line of lines(entry)) {
        const d = detail(line, 'JournalEntryLineDetail');
        post(d.AccountRef, d.PostingType === 'Debit' ? cents(line.Amount) : -cents(line.Amount));
      }
    }
    for (const purchase of this.list('Purchase')) {
      const sign = purchase.data.Credit === true ? -1 : 1;
      post(purchase.data.AccountRef, -sign * cents(purchase.data.TotalAmt));
      for (const line of lines(purchase)) post(detail(line, 'AccountBasedExpenseLineDetail').AccountRef, sign * cents(line.Amount));
    }
    for (const deposit of this.list('Deposit')) {
      post(deposit.data.DepositToAccountRef, cents(deposit.data.TotalAmt));
      for (const line of lines(deposit)) post(detail(line, 'DepositLineDetail').AccountRef, -cents(line.Amount));
    }
    this.accountPostings = net;
    return net;
  }

  /** Inserts an entity with a given creation time (generated histories). */
  insertGenerated(type: EntityType, body: Json, at: Date): StoredEntity {
    const data = this.normalize(type, body, undefined);
    const id = this.allocateId(type);
    const entity: StoredEntity = { type, id, syncToken: 0, createdAt: at, updatedAt: at, deleted: false, data };
    this.entities.get(type)!.set(id, entity);
    this.touched(type, entity, undefined);
    return entity;
  }

  // ── field rules per entity ────────────────────────────────────────────────────────────────────────

  private normalize(type: EntityType, body: Json, existing: StoredEntity | undefined): Json {
    switch (type) {
      case 'Account':
        return this.normalizeAccount(body, existing);
      case 'Vendor':
      case 'Customer':
        return this.normalizeName(type, body, existing);
      case 'Item':
        return this.normalizeItem(body);
      case 'Bill':
        return this.normalizeBill(body, existing);
      case 'Invoice':
        return this.normalizeInvoice(body, existing);
      case 'JournalEntry':
        return this.normalizeJournal(body);
      case 'Purchase':
        return this.normalizePurchase(body);
      case 'Deposit':
        return this.normalizeDeposit(body);
    }
  }

  private normalizeAccount(body: Json, existing: StoredEntity | undefined): Json {
    const name = reqString(body, 'Name', 100);
    if (/[:"]/.test(name)) throw faults.invalidProperty('Name', 'Name cannot contain a colon (:) or a double quote (")');
    const clash = this.list('Account').find((a) => a.id !== existing?.id && String(a.data.Name).toLowerCase() === name.toLowerCase());
    if (clash) throw faults.duplicateName(clash.id);
    const accountType = optString(body, 'AccountType', 100);
    if (accountType === undefined) throw faults.required('AccountType');
    const kind = ACCOUNT_TYPES[accountType];
    if (!kind) throw faults.invalidProperty('AccountType', `AccountType ${accountType} is not one of ${Object.keys(ACCOUNT_TYPES).join(', ')}`);
    const active = optBoolean(body, 'Active') ?? true;
    return compact({
      Name: name,
      SubAccount: false,
      FullyQualifiedName: name,
      Active: active,
      Classification: kind.classification,
      AccountType: accountType,
      AccountSubType: optString(body, 'AccountSubType', 100) ?? kind.subType,
      AcctNum: optString(body, 'AcctNum', 20),
      Description: optString(body, 'Description', 100),
      CurrencyRef: USD,
    });
  }

  private normalizeName(type: 'Vendor' | 'Customer', body: Json, existing: StoredEntity | undefined): Json {
    const given = optString(body, 'GivenName', 100);
    const family = optString(body, 'FamilyName', 100);
    const companyName = optString(body, 'CompanyName', 100);
    const displayName = optString(body, 'DisplayName', 500) ?? ([given, family].filter(Boolean).join(' ') || companyName);
    if (!displayName || displayName.trim() === '') throw faults.required('DisplayName');
    if (/[:\t\n]/.test(displayName)) throw faults.invalidProperty('DisplayName', 'DisplayName cannot contain a colon (:), a tab or a new line');
    const clash = this.nameIndex.get(nameKey(displayName));
    if (clash && !(clash.type === type && clash.id === existing?.id)) throw faults.duplicateName(clash.id);
    const email = isObject(body.PrimaryEmailAddr) ? optString(body.PrimaryEmailAddr, 'Address', 100, 'PrimaryEmailAddr.Address') : undefined;
    if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw faults.invalidProperty('PrimaryEmailAddr.Address', 'Invalid email address');
    const phone = isObject(body.PrimaryPhone) ? optString(body.PrimaryPhone, 'FreeFormNumber', 30, 'PrimaryPhone.FreeFormNumber') : undefined;
    const address = isObject(body.BillAddr) ? address_(body.BillAddr) : undefined;
    return compact({
      DisplayName: displayName,
      ...(type === 'Customer'
        ? { FullyQualifiedName: displayName, Job: false, BillWithParent: false, Taxable: false }
        : { Vendor1099: optBoolean(body, 'Vendor1099') ?? false }),
      GivenName: given,
      FamilyName: family,
      CompanyName: companyName,
      PrintOnCheckName: optString(body, 'PrintOnCheckName', 110) ?? displayName,
      Active: optBoolean(body, 'Active') ?? true,
      PrimaryEmailAddr: email !== undefined ? { Address: email } : undefined,
      PrimaryPhone: phone !== undefined ? { FreeFormNumber: phone } : undefined,
      BillAddr: address,
      Notes: optString(body, 'Notes', 2000),
      CurrencyRef: USD,
    });
  }

  private normalizeItem(body: Json): Json {
    return compact({
      Name: reqString(body, 'Name', 100),
      FullyQualifiedName: reqString(body, 'Name', 100),
      Active: true,
      Type: 'Service',
      Taxable: false,
      UnitPrice: money(amountCents(body.UnitPrice, 'UnitPrice') ?? 0),
      IncomeAccountRef: this.ref(body, 'IncomeAccountRef', 'Account', true),
    });
  }

  private normalizeBill(body: Json, existing: StoredEntity | undefined): Json {
    const vendorRef = this.ref(body, 'VendorRef', 'Vendor', true);
    const txnDate = optDate(body, 'TxnDate') ?? companyDate(this.now());
    const { lines, totalCents } = this.lines(body, 'Bill', ['AccountBasedExpenseLineDetail']);
    const apAccount = this.ref(body, 'APAccountRef', 'Account', false) ?? this.defaultAccountRef('Accounts Payable');
    void existing;
    return compact({
      VendorRef: vendorRef,
      APAccountRef: apAccount,
      TxnDate: txnDate,
      DueDate: optDate(body, 'DueDate') ?? txnDate,
      DocNumber: optString(body, 'DocNumber', 21),
      PrivateNote: optString(body, 'PrivateNote', 4000),
      Line: lines,
      TotalAmt: money(totalCents),
      Balance: money(totalCents),
      CurrencyRef: USD,
    });
  }

  private normalizeInvoice(body: Json, existing: StoredEntity | undefined): Json {
    const customerRef = this.ref(body, 'CustomerRef', 'Customer', true);
    const txnDate = optDate(body, 'TxnDate') ?? companyDate(this.now());
    const { lines, totalCents } = this.lines(body, 'Invoice', ['SalesItemLineDetail', 'DescriptionOnly', 'SubTotalLineDetail']);
    const withSubtotal = [...lines, { Amount: money(totalCents), DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} }];
    const docNumber =
      optString(body, 'DocNumber', 21) ?? (existing ? (existing.data.DocNumber as string | undefined) : undefined) ?? String(this.nextInvoiceNumber++);
    const email = isObject(body.BillEmail) ? optString(body.BillEmail, 'Address', 100, 'BillEmail.Address') : undefined;
    return compact({
      CustomerRef: customerRef,
      TxnDate: txnDate,
      DueDate: optDate(body, 'DueDate') ?? addDays(txnDate, 30),
      DocNumber: docNumber,
      PrivateNote: optString(body, 'PrivateNote', 4000),
      CustomerMemo: isObject(body.CustomerMemo) ? { value: optString(body.CustomerMemo, 'value', 1000, 'CustomerMemo.value') } : undefined,
      BillEmail: email !== undefined ? { Address: email } : undefined,
      EmailStatus: 'NotSet',
      PrintStatus: 'NotSet',
      Line: withSubtotal,
      TotalAmt: money(totalCents),
      Balance: money(totalCents),
      ApplyTaxAfterDiscount: false,
      CurrencyRef: USD,
    });
  }

  private normalizeJournal(body: Json): Json {
    const { lines, debitCents, creditCents } = this.lines(body, 'JournalEntry', ['JournalEntryLineDetail', 'DescriptionOnly']);
    if (debitCents !== creditCents) {
      throw faults.business(`Transaction must be balanced: debits ${money(debitCents).toFixed(2)} and credits ${money(creditCents).toFixed(2)} differ`);
    }
    if (debitCents === 0) throw faults.business('A journal entry needs at least one debit and one credit line');
    return compact({
      TxnDate: optDate(body, 'TxnDate') ?? companyDate(this.now()),
      DocNumber: optString(body, 'DocNumber', 21),
      PrivateNote: optString(body, 'PrivateNote', 4000),
      Adjustment: optBoolean(body, 'Adjustment') ?? false,
      Line: lines,
      TotalAmt: money(debitCents),
      CurrencyRef: USD,
    });
  }

  private normalizePurchase(body: Json): Json {
    const paymentType = body.PaymentType;
    if (paymentType === undefined || paymentType === null) throw faults.required('PaymentType');
    if (paymentType !== 'Cash' && paymentType !== 'Check' && paymentType !== 'CreditCard') {
      throw faults.invalidProperty('PaymentType', 'PaymentType must be Cash, Check or CreditCard');
    }
    const accountRef = this.ref(body, 'AccountRef', 'Account', true);
    const account = this.find('Account', accountRef.value)!;
    const wanted = paymentType === 'CreditCard' ? 'Credit Card' : 'Bank';
    if (account.data.AccountType !== wanted) {
      throw faults.business(`A ${paymentType} purchase is paid from a ${wanted} account; ${String(account.data.Name)} is ${String(account.data.AccountType)}`);
    }
    const entityRef = isObject(body.EntityRef) ? this.nameRef(body.EntityRef, 'EntityRef') : undefined;
    const { lines, totalCents } = this.lines(body, 'Purchase', ['AccountBasedExpenseLineDetail']);
    return compact({
      PaymentType: paymentType,
      AccountRef: accountRef,
      EntityRef: entityRef,
      Credit: optBoolean(body, 'Credit'),
      TxnDate: optDate(body, 'TxnDate') ?? companyDate(this.now()),
      DocNumber: optString(body, 'DocNumber', 21),
      PrivateNote: optString(body, 'PrivateNote', 4000),
      Line: lines,
      TotalAmt: money(totalCents),
      CurrencyRef: USD,
    });
  }

  private normalizeDeposit(body: Json): Json {
    const accountRef = this.ref(body, 'DepositToAccountRef', 'Account', true);
    const account = this.find('Account', accountRef.value)!;
    if (account.data.AccountType !== 'Bank' && account.data.AccountType !== 'Other Current Asset') {
      throw faults.business(`Deposits go to a bank account; ${String(account.data.Name)} is ${String(account.data.AccountType)}`);
    }
    const { lines, totalCents } = this.lines(body, 'Deposit', ['DepositLineDetail']);
    return compact({
      DepositToAccountRef: accountRef,
      TxnDate: optDate(body, 'TxnDate') ?? companyDate(this.now()),
      DocNumber: optString(body, 'DocNumber', 21),
      PrivateNote: optString(body, 'PrivateNote', 4000),
      Line: lines,
      TotalAmt: money(totalCents),
      CurrencyRef: USD,
    });
  }

  /** Line[] with Id and LineNum assigned; totals in cents (debits and credits for a journal entry). */
  private lines(body: Json, type: EntityType, detailTypes: readonly string[]): { lines: Json[]; totalCents: number; debitCents: number; creditCents: number } {
    const raw = body.Line;
    if (raw === undefined || raw === null) throw faults.required('Line');
    if (!Array.isArray(raw)) throw faults.invalidProperty('Line', 'Line must be an array');
    if (raw.length > 1000) throw faults.business('A transaction has at most 1000 lines');
    const lines: Json[] = [];
    let totalCents = 0;
    let debitCents = 0;
    let creditCents = 0;
    raw.forEach((value, index) => {
      const path = `Line[${index}]`;
      if (!isObject(value)) throw faults.invalidProperty(path, `${path} must be an object`);
      const detailType = value.DetailType;
      if (detailType === undefined || detailType === null) throw faults.required(`${path}.DetailType`);
      if (typeof detailType !== 'string' || !detailTypes.includes(detailType)) {
        throw faults.invalidProperty(`${path}.DetailType`, `${path}.DetailType of a ${type} is one of ${detailTypes.join(', ')}`);
      }
      if (detailType === 'SubTotalLineDetail') return; // recomputed
      const description = optString(value, 'Description', 4000, `${path}.Description`);
      const line: Json = { Id: String(lines.length + 1), LineNum: lines.length + 1, Description: description, DetailType: detailType };
      if (detailType === 'DescriptionOnly') {
        line.DescriptionLineDetail = {};
        lines.push(compact(line));
        return;
      }
      const cents = amountCents(value.Amount, `${path}.Amount`, { required: true })!;
      line.Amount = money(cents);
      const detail = value[detailType];
      if (!isObject(detail)) throw faults.required(`${path}.${detailType}`);
      const dpath = `${path}.${detailType}`;
      if (detailType === 'AccountBasedExpenseLineDetail') {
        line[detailType] = compact({
          AccountRef: this.ref(detail, 'AccountRef', 'Account', true, `${dpath}.AccountRef`),
          CustomerRef: this.ref(detail, 'CustomerRef', 'Customer', false, `${dpath}.CustomerRef`),
          BillableStatus: 'NotBillable',
        });
      } else if (detailType === 'SalesItemLineDetail') {
        const itemRef = this.ref(detail, 'ItemRef', 'Item', false, `${dpath}.ItemRef`) ?? this.defaultItemRef();
        const qty = detail.Qty === undefined || detail.Qty === null ? undefined : Number(detail.Qty);
        if (qty !== undefined && (!Number.isFinite(qty) || qty < 0 || qty > 1e9)) throw faults.invalidProperty(`${dpath}.Qty`, `${dpath}.Qty must be a number`);
        const unitCents = amountCents(detail.UnitPrice, `${dpath}.UnitPrice`);
        if (qty !== undefined && unitCents !== undefined && Math.round(qty * unitCents) !== cents) {
          throw faults.amountMismatch(`${path}.Amount`, money(cents));
        }
        line[detailType] = compact({
          ItemRef: itemRef,
          Qty: qty,
          UnitPrice: unitCents === undefined ? undefined : money(unitCents),
          ServiceDate: optDate(detail, 'ServiceDate', `${dpath}.ServiceDate`),
        });
      } else if (detailType === 'JournalEntryLineDetail') {
        const posting = detail.PostingType;
        if (posting === undefined || posting === null) throw faults.required(`${dpath}.PostingType`);
        if (posting !== 'Debit' && posting !== 'Credit') throw faults.invalidProperty(`${dpath}.PostingType`, `${dpath}.PostingType must be Debit or Credit`);
        if (posting === 'Debit') debitCents += cents;
        else creditCents += cents;
        const entity = isObject(detail.Entity) ? this.journalEntity(detail.Entity, `${dpath}.Entity`) : undefined;
        line[detailType] = compact({
          PostingType: posting,
          AccountRef: this.ref(detail, 'AccountRef', 'Account', true, `${dpath}.AccountRef`),
          Entity: entity,
        });
      } else if (detailType === 'DepositLineDetail') {
        const entity = isObject(detail.Entity) ? this.nameRef(detail.Entity, `${dpath}.Entity`) : undefined;
        line[detailType] = compact({ AccountRef: this.ref(detail, 'AccountRef', 'Account', true, `${dpath}.AccountRef`), Entity: entity });
      }
      totalCents += cents;
      lines.push(compact(line));
    });
    if (lines.length === 0) throw faults.required('Line');
    return { lines, totalCents, debitCents, creditCents };
  }

  /** A reference `{ value, name }` to a live, active entity of `type`; answered with the entity's name. */
  private ref(body: Json, field: string, type: EntityType, required: true, path?: string): { value: string; name: string };
  private ref(body: Json, field: string, type: EntityType, required: boolean, path?: string): { value: string; name: string } | undefined;
  private ref(body: Json, field: string, type: EntityType, required: boolean, path = field): { value: string; name: string } | undefined {
    const value = body[field];
    if (value === undefined || value === null) {
      if (required) throw faults.required(path);
      return undefined;
    }
    if (!isObject(value)) throw faults.invalidProperty(path, `${path} must be an object { value, name }`);
    const id = value.value;
    if (id === undefined || id === null || id === '') throw faults.required(`${path}.value`);
    if (typeof id !== 'string' && typeof id !== 'number') throw faults.invalidProperty(`${path}.value`);
    const target = this.find(type, String(id));
    if (!target || target.data.Active === false) throw faults.notFound(`${path}: ${type} ${String(id)}`);
    return { value: target.id, name: String(type === 'Account' || type === 'Item' ? target.data.FullyQualifiedName : target.data.DisplayName) };
  }

  private nameRef(value: Json, path: string): { value: string; name: string; type: string } {
    const type = value.type ?? 'Vendor';
    if (type !== 'Vendor' && type !== 'Customer') throw faults.invalidProperty(`${path}.type`, `${path}.type must be Vendor or Customer`);
    const ref = this.ref({ ref: value }, 'ref', type, true, path);
    return { ...ref, type };
  }

  private journalEntity(value: Json, path: string): Json {
    const type = value.Type;
    if (type !== 'Vendor' && type !== 'Customer') throw faults.invalidProperty(`${path}.Type`, `${path}.Type must be Vendor or Customer`);
    return { Type: type, EntityRef: this.ref(value, 'EntityRef', type, true, `${path}.EntityRef`) };
  }

  private defaultAccountRef(accountType: string): { value: string; name: string } {
    // Accounts are kept in Id order (ids are allocated in sequence): the first live one of the type.
    const account = [...this.entities.get('Account')!.values()].find((a) => !a.deleted && a.data.AccountType === accountType && a.data.Active !== false);
    if (!account) throw faults.business(`The company has no ${accountType} account`);
    return { value: account.id, name: String(account.data.FullyQualifiedName) };
  }

  private defaultItemRef(): { value: string; name: string } {
    const item = this.list('Item')[0];
    if (!item) throw faults.required('SalesItemLineDetail.ItemRef');
    return { value: item.id, name: String(item.data.Name) };
  }
}

function nameKey(displayName: string): string {
  return displayName.trim().toLowerCase();
}

function address_(value: Json): Json {
  return compact({
    Line1: optString(value, 'Line1', 500, 'BillAddr.Line1'),
    City: optString(value, 'City', 255, 'BillAddr.City'),
    CountrySubDivisionCode: optString(value, 'CountrySubDivisionCode', 255, 'BillAddr.CountrySubDivisionCode'),
    PostalCode: optString(value, 'PostalCode', 30, 'BillAddr.PostalCode'),
    Country: optString(value, 'Country', 255, 'BillAddr.Country'),
  });
}

/** Drops undefined fields (QBO leaves unset fields out of its answers). */
function compact(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
