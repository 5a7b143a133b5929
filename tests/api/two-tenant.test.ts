// Issue #15's generated two-tenant test. Two signed-up tenants, each with a bank linked through the Plaid
// sandbox (so transactions, billers and bank accounts), a category of its own and an accrual. Then, driven by
// the gateway's /docs/json alone, every operation that takes an id (a path parameter, a query parameter or a
// body field, nested ones included, whose name looks like an id; a query parameter of comma-joined ids, told by its
// description or its name, gets the caller's id and the OTHER tenant's in one list) is called by one tenant with the
// OTHER tenant's id in that one place and its own valid ids everywhere else: the answer is a 404 in the documented
// error shape, and the books of both tenants (every row with their workspace id, in every service's database)
// hash the same before and after. A new route or field is covered without editing this file. Each tenant also
// has a team (a member and an open invite) and a firm keeping its organization (an accountant and an open firm
// invite), so the ids of members, invites, workspaces, organizations, firm members and firm invites are real
// ones of the other tenant, not ids that exist nowhere. Likewise two vendors and a customer of each tenant, made
// through the API (issue #17), for the vendor and customer routes and every vendor id inside a body.
import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SERVICE, signedUpUser, startSystem, uniqueEmail, type System } from '../support/system.js';

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card

interface Schema {
  $ref?: string;
  description?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
}
interface Param {
  name: string;
  in: string;
  schema?: Schema;
  required?: boolean;
  description?: string;
}
interface Operation {
  operationId?: string;
  parameters?: Param[];
  security?: unknown[];
  requestBody?: { content?: { 'application/json'?: { schema: Schema } } };
}
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/**
 * Names that carry an id (coaId is a chart number, methodId an OTP flow's, priceId a plan's price of the product's
 * catalog, realmId a QuickBooks company's: not references to a tenant's objects).
 */
const ID_NAME = /(^id$|Id$|Ids$|^billers$|^categories$|^workspaces$)/;
const NOT_A_REFERENCE = new Set(['coaId', 'methodId', 'priceId', 'realmId']);
const isIdName = (name: string) => ID_NAME.test(name) && !NOT_A_REFERENCE.has(name);
/** A query parameter described as a list of ids ("Comma-separated transaction ids", "Comma-joined workspace ids"). */
const COMMA_IDS = /\bcomma-(?:separated|joined)\b[^.]*\bids\b/i;
/** Names of a list of ids (categoryIds, billers): in a query string, comma-joined. */
const ID_LIST_NAME = /(Ids$|^billers$|^categories$|^workspaces$)/;
/**
 * A query parameter that takes comma-joined ids, from its OpenAPI description or its name: probed with the caller's
 * own id and the other tenant's in one list, so the other's id is checked inside the list, not only alone.
 */
const isIdList = (p: Param) =>
  p.in === 'query' && !NOT_A_REFERENCE.has(p.name) && (COMMA_IDS.test(p.description ?? p.schema?.description ?? '') || ID_LIST_NAME.test(p.name));
/** A path or query parameter that carries ids: by its name, or a comma-joined list of them. */
const isIdParam = (p: Param) => isIdName(p.name) || isIdList(p);
/**
 * Places whose ids are not the workspace's: the provider's account ids a link brings (POST /accounts), and
 * GET /transactions/v2/{id}'s `ledgerTransactionId`, accepted for the spec's clients and ignored (no effect).
 */
const NOT_WORKSPACE_IDS = [/^accounts\./, /^institution\./, /^ledgerTransactionId$/];
/** Values of fields whose schema gives no enum or bound but whose use case wants a particular one. */
const KNOWN_VALUES: Record<string, unknown> = {
  coaId: 99_999,
  accrualCategory: 'Prepaid Expenses',
  accrualStartDate: '2026-01-01',
  accrualEndDate: '2026-03-31',
  taggedUsers: [],
};
/**
 * A vendor's or customer's text fields that the parties service checks (spec §3): with these the body is valid, so
 * a probe's only fault is the other tenant's id, whichever the service checks first.
 */
const PARTY_VALUES: Record<string, string> = { email: 'probe@example.com', ein: '12-3456789', status: 'active' };

type Kind =
  | 'transaction'
  | 'category'
  | 'ledgerAccount'
  | 'biller'
  | 'bankAccount'
  | 'otherBankAccount'
  | 'workspace'
  | 'split'
  | 'accrued'
  | 'member'
  | 'invite'
  | 'organization'
  | 'firmMember'
  | 'firmInvite'
  | 'vendor'
  | 'otherVendor'
  | 'customer'
  | 'vendorCredit'
  | 'creditMemo'
  | 'rule'
  | 'bill'
  | 'invoice'
  | 'manualEntry'
  | 'draft'
  | 'bulkUpload'
  | 'upload'
  | 'fixedAsset'
  | 'assetAccount'
  | 'stripePayout'
  | 'stripePaymentIntent';
/** What a bare `id` names, by the route's first segment (and, under /accounting-firm, its second). */
const ID_KINDS: Record<string, Kind> = {
  categories: 'category',
  billers: 'biller',
  vendors: 'vendor',
  customers: 'customer',
  accounts: 'bankAccount',
  workspace: 'workspace',
  members: 'member',
  invites: 'invite',
  'revoke-invite': 'invite',
  'accounting-firm/member': 'firmMember',
  'accounting-firm/member-access': 'firmMember',
  'accounting-firm/invite': 'firmInvite',
  'accounting-firm/organization': 'organization',
  'accounting-firm/make-default-org': 'organization',
  'vendors/vendor-credit': 'vendorCredit',
  'customers/credit-memo': 'creditMemo',
  'vendors/rule-engines': 'rule',
  'accounting/bill': 'bill',
  'accounting/invoice': 'invoice',
  'accounting/manual-entry': 'manualEntry',
  invoice: 'invoice',
  drafts: 'draft',
  'workspace-uploads': 'upload',
  'accounting/fixed-asset': 'fixedAsset',
  'stripe-analytic/payouts': 'stripePayout',
  'stripe-analytic/payment-intents': 'stripePaymentIntent',
};
/** A document's lists of payments (and a journal's of what it pays), by the kind of id each holds. */
const CONNECTION_KINDS: Record<string, Kind> = {
  connectedManualEntries: 'manualEntry',
  connectedVendorCredits: 'vendorCredit',
  connectedCreditMemos: 'creditMemo',
  connectedBills: 'bill',
  connectedInvoices: 'invoice',
};
/** What an id-like field names, from its name (and, for a bare `id`, the route). */
function kindOf(name: string, path: string): Kind {
  if (name === 'id') {
    const [, head = '', sub = ''] = path.split('/');
    const kind = ID_KINDS[`${head}/${sub}`] ?? ID_KINDS[head];
    if (kind) return kind;
  }
  if (/^workspace/.test(name)) return 'workspace';
  // Drafts (issue #19): the drafts converted or deleted, the bulk upload and the uploaded file a draft came from.
  if (name === 'draftIds') return 'draft';
  if (/^bulkUpload/.test(name)) return 'bulkUpload';
  if (name === 'uploadId') return 'upload';
  // A fixed asset's account (its asset type): an account of class Assets of the chart.
  if (/^assetType/.test(name)) return 'assetAccount';
  if (/^organization/.test(name)) return 'organization';
  if (/ledgerAccount/i.test(name)) return 'ledgerAccount';
  // A merge's merging vendors: another vendor than its parent, so the rest of the call is valid.
  if (/^merging/.test(name)) return 'otherVendor';
  if (/rule/i.test(name)) return 'rule';
  // A vendor rule's source: the bank account its transactions come from.
  if (name === 'sourceId') return 'bankAccount';
  if (/vendor/i.test(name)) return 'vendor';
  if (/customer/i.test(name)) return 'customer';
  if (name === 'targetAccountId') return 'otherBankAccount';
  if (/categor|parentId/i.test(name)) return 'category';
  if (/biller/i.test(name)) return 'biller';
  if (/[aA]ccountId/.test(name)) return 'bankAccount';
  // The transaction a route needs to reach its references: a split one for update-split, an accrued one for accruals.
  if (/update-split/.test(path)) return 'split';
  if (/accrual/.test(path)) return 'accrued';
  return 'transaction';
}

interface Tenant {
  token: string;
  workspace: string;
  ids: Record<Kind, string>;
}

let system: System;
let doc: Doc;
let a: Tenant;
let b: Tenant;

const resolve = (s: Schema | undefined): Schema => {
  if (!s) return {};
  if (s.$ref) return resolve(doc.components?.schemas?.[s.$ref.replace(/^#\/components\/schemas\//, '')]);
  const alt = s.anyOf ?? s.oneOf;
  return alt ? resolve(alt.find((x) => resolve(x).type !== 'null')) : s;
};
const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** A plausible value for a field that is not an id: its enum's first, a date, a small number... */
function sample(name: string, s: Schema, own: Tenant, path: string, depth = 0): unknown {
  const r = resolve(s);
  if (isIdName(name)) {
    const id = own.ids[kindOf(name, path)];
    return typeOf(r) === 'array' || /Ids$|^billers$|^categories$/.test(name) ? (typeOf(r) === 'array' ? [id] : id) : id;
  }
  if (name in KNOWN_VALUES) return KNOWN_VALUES[name];
  if (name in PARTY_VALUES && typeOf(r) === 'string' && /^\/(vendors|customers)/.test(path)) return PARTY_VALUES[name];
  if (r.enum?.length) return r.enum[0];
  switch (typeOf(r)) {
    case 'string':
      return /date/i.test(name) || r.format === 'date' ? '2026-01-31' : 'x';
    case 'number':
    case 'integer':
      return Math.max(1, r.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return depth > 2 ? [] : [sample(name.replace(/s$/, ''), r.items ?? {}, own, path, depth + 1)];
    case 'object':
      return depth > 2 ? {} : Object.fromEntries(Object.entries(r.properties ?? {}).map(([k, v]) => [k, sample(k, v, own, path, depth + 1)]));
    default:
      return 'x';
  }
}

/** A manual journal's sampled body gets a debit line and its credit twin, so it balances (spec §5: debits = credits). */
function balanceManualEntry(path: string, body: Record<string, unknown>): void {
  if (!path.startsWith('/accounting/manual-entry') || !Array.isArray(body.lineItems) || body.lineItems.length !== 1) return;
  const line = body.lineItems[0] as Record<string, unknown>;
  body.lineItems = [
    { ...line, type: 'debit' },
    { ...line, type: 'credit' },
  ];
}

/**
 * A bill's, invoice's or manual journal's body lists every payment list (those the kind does not take are refused by
 * name, not dropped) and the recurrence fields (asking for recurrence, judged by their own rules): the probe body
 * leaves both out, so its only fault is the other tenant's id.
 */
const NOT_TAKEN: Record<string, string[]> = {
  bill: ['connectedCreditMemos', 'connectedBills', 'connectedInvoices'],
  invoice: ['connectedVendorCredits', 'connectedBills', 'connectedInvoices'],
  'manual-entry': ['connectedManualEntries', 'connectedVendorCredits', 'connectedCreditMemos'],
};
const RECURRENCE_FIELDS = ['recurringStartDate', 'recurringEndDate', 'interval', 'recurringEndType', 'recurringCount', 'activity'];
const documentKindOf = (path: string) => /^\/accounting\/(bill|invoice|manual-entry)\/(v2|\{id\}|check)$/.exec(path)?.[1];
const notTakenHere = (path: string, field: string) => (NOT_TAKEN[documentKindOf(path) ?? ''] ?? []).includes(field.replace(/\.id$/, ''));
function documentBodyOnly(path: string, body: Record<string, unknown>): void {
  const kind = documentKindOf(path);
  if (!kind) return;
  for (const k of [...(NOT_TAKEN[kind] ?? []), ...RECURRENCE_FIELDS]) delete body[k];
}

/** Every id-like place of a body schema, as a path of keys (array items as index 0). */
function idPlaces(s: Schema | undefined, at: (string | number)[] = [], depth = 0): (string | number)[][] {
  const r = resolve(s);
  if (depth > 3) return [];
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(r.properties ?? {})) {
    const rv = resolve(v);
    if (isIdName(k)) out.push([...at, k]);
    else if (typeOf(rv) === 'object') out.push(...idPlaces(rv, [...at, k], depth + 1));
    else if (typeOf(rv) === 'array' && typeOf(resolve(rv.items)) === 'object') out.push(...idPlaces(rv.items, [...at, k, 0], depth + 1));
  }
  return out;
}

function setAt(target: Record<string, unknown>, place: (string | number)[], value: unknown): void {
  let cur: Record<string | number, unknown> = target;
  for (const key of place.slice(0, -1)) cur = cur[key] as Record<string | number, unknown>;
  const last = place.at(-1) as string;
  cur[last] = Array.isArray(cur[last]) ? [value] : value;
}

/** Every row holding a workspace's id, in every database of the system, hashed. */
/** Each table's rows of the workspace, hashed: a change names its table. */
async function booksHash(workspace: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const dbs = {
    ledger: system.ledgerDb?.adminDb,
    banking: system.bankingDb?.adminDb,
    reporting: system.reportingDb?.adminDb,
    documents: system.databases.documents?.adminDb,
  } as Record<string, Knex | undefined>;
  for (const [name, db] of Object.entries(dbs)) {
    if (!db) continue;
    const tables = (await db.raw("select table_name from information_schema.columns where column_name = 'workspace_id' and table_schema = 'public' order by 1"))
      .rows as { table_name: string }[];
    for (const { table_name: t } of tables) {
      // Outbox rows are relayed (and marked) in the background: their content is in the tables they describe.
      if (/outbox|inbox|^sync_jobs$|webhook/.test(t)) continue;
      const rows = (await db.raw(`select * from "${t}" where workspace_id = ? order by 1`, [workspace])).rows;
      out[`${name}.${t}`] = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
    }
  }
  return out;
}

async function tenantWithBooks(): Promise<Tenant> {
  const { token, user } = await signedUpUser(system);
  const workspace = user.workspace.id;
  const plaid = system.plaid!;
  const publicToken = plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: 12, seed: 3, initial_webhook: false } },
  });
  const item = plaid.listItems().at(-1)!;
  const institution = plaid.institutions().find((i) => i.institutionId === PLATYPUS)!;
  const accounts = item.accounts.map((x) => ({
    id: x.account_id,
    name: x.name,
    mask: x.mask,
    type: x.subtype === 'credit card' ? 'credit' : 'depository',
    subtype: x.subtype,
  }));
  expect(
    (
      await system.api('POST', '/accounts', {
        token,
        body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
      })
    ).status,
  ).toBe(200);
  // Every sync done and every bank transaction booked.
  const count = await expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token });
      expect(jobs.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status))).toEqual([]);
      const bank = await system.api('GET', '/bank-transactions?take=100', { token });
      expect(bank.body.data.length).toBeGreaterThan(0);
      expect(bank.body.data.length).toBeLessThan(100);
      return bank.body.data.length as number;
    },
    { timeoutMs: 90_000, intervalMs: 300 },
  );
  const txns = await expectEventually(
    async () => {
      const r = await system.api('GET', '/transactions/v2?take=100', { token });
      expect(r.body.meta.itemCount).toBe(count);
      return r.body.data as { id: string; amount: number; accountId: string; dateTime: string }[];
    },
    { timeoutMs: 90_000, intervalMs: 300 },
  );
  const categories = (await system.api('GET', '/categories', { token })).body.categories as { id: string; name: string; bankAccountId: string | null }[];
  const parent = (await system.api('GET', '/categories/chart-of-accounts', { token })).body.parentCategories.find(
    (c: { name: string }) => c.name === 'Operating Expenses',
  );
  const created = await system.api('POST', '/categories', { token, body: { name: 'Team Offsite', coaId: 61800, parentId: parent.id } });
  expect(created.status).toBe(201);
  const outflow = txns.find((t) => t.amount < 0) ?? txns[0]!;
  await system.api('POST', '/transactions/create-accrual', {
    token,
    body: {
      transactionId: outflow.id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-03-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: created.body.category.id,
    },
  });
  let billers = (await system.api('GET', '/billers', { token })).body.billers as { id: string }[];
  if (billers.length === 0) {
    await system.api('PATCH', '/transactions', { token, body: { transactions: [{ id: txns[0]!.id, billerName: 'Blue Bottle' }] } });
    billers = (await system.api('GET', '/billers', { token })).body.billers;
  }
  const plain = txns.filter((t) => t.id !== outflow.id);
  const toSplit = plain.find((t) => t.amount < -0.02) ?? plain[0]!;
  const half = Math.round(Math.abs(toSplit.amount) * 50) / 100;
  const split = await system.api('POST', '/transactions/split', {
    token,
    body: {
      parentTransaction: { id: toSplit.id, amount: half, categoryId: created.body.category.id },
      splitTransactions: [{ amount: Math.round((Math.abs(toSplit.amount) - half) * 100) / 100, categoryId: created.body.category.id }],
    },
  });
  expect(split.status, JSON.stringify(split.body)).toBe(200);
  const banks = categories.filter((c) => c.bankAccountId);
  const partyIds = await parties(token, workspace, created.body.category.id as string);
  const transaction = (plain.find((t) => t.id !== toSplit.id) ?? plain[0]!).id;
  // A fixed asset bought with another outflow (that transaction becomes the asset's and is not edited any more).
  const purchase = plain.find((t) => t.amount < 0 && t.id !== toSplit.id && t.id !== transaction);
  if (!purchase) throw new Error('the sandbox gave no outflow left for a fixed asset');
  const assetType = categories.find((c) => c.name === 'Property and Equipment');
  if (!assetType) throw new Error('the chart has no Property and Equipment account');
  return {
    token,
    workspace,
    ids: {
      transaction,
      split: toSplit.id,
      fixedAsset: await fixedAssetOf(token, workspace, purchase, assetType.id),
      assetAccount: assetType.id,
      // Stripe's ids (the other tenant's in its format, never synced into the caller's workspace): the views answer
      // 404, not a 400 for the shape. tests/api/integrations.test.ts does the same with two connected Stripe accounts.
      stripePayout: `po_${workspace.replace(/-/g, '').slice(0, 24)}`,
      stripePaymentIntent: `pi_${workspace.replace(/-/g, '').slice(0, 24)}`,
      accrued: outflow.id,
      category: created.body.category.id,
      ledgerAccount: banks[0]!.id,
      biller: billers[0]!.id,
      bankAccount: banks[0]!.bankAccountId as string,
      otherBankAccount: (banks[1] ?? banks[0]!).bankAccountId as string,
      workspace,
      ...(await teamAndFirm(token, workspace)),
      ...partyIds,
      ...(await documents(token, workspace, { vendor: partyIds.vendor, customer: partyIds.customer, category: created.body.category.id as string })),
      ...(await draftOf(token, workspace, await uploadOf(token, workspace))),
    },
  };
}

/**
 * A fixed asset of the tenant bought with `purchase` (issue #19): depreciation starts in two years, so the scheduler
 * posts nothing while the books are hashed.
 */
async function fixedAssetOf(
  token: string,
  workspace: string,
  purchase: { id: string; amount: number; dateTime: string },
  assetTypeId: string,
): Promise<string> {
  const purchaseDate = purchase.dateTime.slice(0, 10);
  const r = await system.api('POST', '/accounting/fixed-asset', {
    token,
    workspace,
    body: {
      transactionId: purchase.id,
      purchaseDate,
      depreciationStartDate: `${new Date().getUTCFullYear() + 2}-01-01`,
      description: 'Probe asset',
      assetTypeId,
      cost: Math.abs(purchase.amount),
      usefulLife: 5,
    },
  });
  expect(r.status, `POST /accounting/fixed-asset: ${JSON.stringify(r.body)}`).toBe(201);
  return r.body.fixedAsset.id as string;
}

/** Every queue job of the workspace finished: bank syncs, and the bulk-upload job that reads an uploaded receipt. */
async function jobsSettled(token: string, workspace: string): Promise<void> {
  await expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token, workspace });
      expect(jobs.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status))).toEqual([]);
    },
    { timeoutMs: 120_000, intervalMs: 300 },
  );
}

/** A receipt the tenant uploaded (a one-page PDF): its upload id. */
async function uploadOf(token: string, workspace: string): Promise<string> {
  const form = new FormData();
  form.append('uploadType', 'receipt');
  form.append('files', new Blob([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'probe.pdf');
  const res = await fetch(`${system.gatewayUrl}/workspace-uploads`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}`, 'x-workspace-id': workspace },
  });
  const body = (await res.json()) as { results: { uploadedFiles: { id: string }[] } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.results.uploadedFiles[0]!.id;
}

/** The link's token of the newest mail to `email` whose subject matches. */
async function mailedToken(email: string, subject: RegExp): Promise<string> {
  const mail = await system.mailTo(email, subject);
  const link = /https?:\/\/\S+\/verify-invite\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no invite link in "${mail.text}"`);
  return new URL(link).searchParams.get('token') ?? '';
}

/**
 * The tenant's team and firm: a colleague who accepted an invite to the workspace and joined the tenant's firm as
 * its accountant, an open invite of each kind, and the tenant's organization kept by its firm.
 */
async function teamAndFirm(
  token: string,
  workspace: string,
): Promise<Pick<Record<Kind, string>, 'member' | 'invite' | 'organization' | 'firmMember' | 'firmInvite'>> {
  const call = async (method: string, path: string, body?: unknown, as = token) => {
    const r = await system.api(method, path, { token: as, workspace: as === token ? workspace : undefined, body });
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  };
  const colleague = await signedUpUser(system);
  await call('POST', '/send-invite', { email: colleague.email, role: 'Viewer', workspaceIds: [workspace] });
  expect((await system.api('POST', '/verify-invite', { body: { token: await mailedToken(colleague.email, /invited to/) } })).status).toBe(200);
  const invite = (await call('POST', '/send-invite', { email: uniqueEmail('open-invite'), role: 'Viewer', workspaceIds: [workspace] })).invite.id as string;
  const organization = (await call('GET', '/organization')).id as string;
  await call('PATCH', '/accounting-firm', { firmName: 'Tenant Books LLP', country: 'US' });
  await call('POST', '/accounting-firm/add-organization', { organizationId: organization });
  await call('POST', '/accounting-firm/invite', { email: colleague.email, role: 'accountant', organizationIds: [organization] });
  await call('POST', '/accounting-firm/accept-invite/', { token: await mailedToken(colleague.email, /^Join .* on Ledgerline$/) }, colleague.token);
  const firmInvite = (await call('POST', '/accounting-firm/invite', { email: uniqueEmail('open-firm-invite'), role: 'accountant' })).invite.id as string;
  return { member: colleague.user.id, invite, organization, firmMember: colleague.user.id, firmInvite };
}

/** Two vendors, a customer, a vendor credit, a credit memo and a vendor rule of the tenant, made through the API. */
async function parties(
  token: string,
  workspace: string,
  categoryId: string,
): Promise<Pick<Record<Kind, string>, 'vendor' | 'otherVendor' | 'customer' | 'vendorCredit' | 'creditMemo' | 'rule'>> {
  const make = async (path: string, body: Record<string, unknown>, key: string) => {
    const r = await system.api('POST', path, { token, workspace, body });
    expect(r.status, `POST ${path}: ${JSON.stringify(r.body)}`).toBe(201);
    return r.body[key].id as string;
  };
  const vendor = await make('/vendors', { name: 'Harbor Supply Co' }, 'vendor');
  const customer = await make('/customers', { name: 'Alder Bakery' }, 'customer');
  const lineItems = [{ description: 'Probe', categoryId, amount: 12.5 }];
  return {
    vendor,
    otherVendor: await make('/vendors', { name: 'Summit Paper' }, 'vendor'),
    customer,
    vendorCredit: await make('/vendors/vendor-credit', { paymentDate: '2026-03-10', vendorId: vendor, lineItems }, 'vendorCredit'),
    creditMemo: await make('/customers/credit-memo', { paymentDate: '2026-03-10', customerId: customer, refNo: 'CM-1', lineItems }, 'creditMemo'),
    rule: await make(
      '/vendors/rule-engines',
      {
        name: 'Probe rule',
        vendorId: vendor,
        categoryId,
        ruleApplyDateTime: '2026-01-01',
        descriptionSign: 'contains',
        descriptionValue: 'no transaction says this',
      },
      'rule',
    ),
  };
}

/** A bill, an invoice and a manual journal of the tenant (issue #18), made through the API. */
async function documents(
  token: string,
  workspace: string,
  ids: { vendor: string; customer: string; category: string },
): Promise<Pick<Record<Kind, string>, 'bill' | 'invoice' | 'manualEntry'>> {
  const make = async (path: string, body: Record<string, unknown>, key: string) => {
    const r = await system.api('POST', path, { token, workspace, body });
    expect(r.status, `POST ${path}: ${JSON.stringify(r.body)}`).toBe(201);
    return r.body[key].id as string;
  };
  return {
    bill: await make(
      '/accounting/bill/v2',
      { billDate: '2026-03-10', vendorId: ids.vendor, lineItems: [{ serviceName: 'Probe', categoryId: ids.category, amount: 12.5 }] },
      'bill',
    ),
    invoice: await make(
      '/accounting/invoice/v2',
      {
        invoiceDate: '2026-03-10',
        customerId: ids.customer,
        lineItems: [{ serviceName: 'Probe', categoryId: ids.category, quantity: 1, rate: 12.5, amount: 12.5 }],
      },
      'invoice',
    ),
    manualEntry: await make(
      '/accounting/manual-entry/v2',
      {
        postingDate: '2026-03-10',
        memo: 'Probe',
        lineItems: [
          { categoryId: ids.category, type: 'debit', amount: 5 },
          { categoryId: ids.category, type: 'credit', amount: 5 },
        ],
      },
      'manualEntry',
    ),
  };
}

/** A draft of the tenant from a bulk upload of one file (issue #19): its id, its bulk upload's and its file's. */
async function draftOf(token: string, workspace: string, upload: string): Promise<Pick<Record<Kind, string>, 'draft' | 'bulkUpload' | 'upload'>> {
  const bulkUpload = randomUUID();
  const r = await system.api('POST', '/drafts', {
    token,
    workspace,
    body: { entityType: 'bill', draftType: 'bulk_upload', bulkUploadId: bulkUpload, metaData: { uploadId: upload } },
  });
  expect(r.status, `POST /drafts: ${JSON.stringify(r.body)}`).toBe(201);
  return { draft: r.body.draft.id as string, bulkUpload, upload };
}

/** What the parties service holds for a tenant (its own database is not among the books' ones), as a hash. */
async function partiesHash(t: Tenant): Promise<string> {
  const h = createHash('sha256');
  for (const path of [
    '/vendors?take=100',
    '/customers?take=100',
    `/vendors/${t.ids.vendor}`,
    `/vendors/${t.ids.otherVendor}`,
    `/customers/${t.ids.customer}`,
  ]) {
    const r = await system.api('GET', path, { token: t.token, workspace: t.workspace });
    h.update(`${path}:${r.status}:${JSON.stringify(r.body)}\n`);
  }
  return h.digest('hex');
}

beforeAll(async () => {
  system = await startSystem(EVERY_SERVICE);
  [a, b] = [await tenantWithBooks(), await tenantWithBooks()];
  for (const t of [a, b]) await jobsSettled(t.token, t.workspace);
  doc = (await system.api('GET', '/docs/json')).body;
}, 240_000);
afterAll(async () => system?.stop());

interface Probe {
  method: string;
  path: string;
  where: string;
  field: string;
  request: { path: string; body?: unknown };
}

/** One probe per id-like place of every operation: `caller`'s ids everywhere, `other`'s in that place. */
function probes(caller: Tenant, other: Tenant): Probe[] {
  const out: Probe[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op.security?.length) continue; // only signed-in operations act in a workspace
      const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const places: { where: string; field: string; place: (string | number)[] }[] = [
        ...params.filter(isIdParam).map((p) => ({ where: p.in, field: p.name, place: [p.name] })),
        ...idPlaces(bodySchema)
          .map((place) => ({ where: 'body', field: place.filter((k) => typeof k === 'string').join('.'), place }))
          .filter((t) => !notTakenHere(path, t.field)),
      ].filter((p) => !NOT_WORKSPACE_IDS.some((re) => re.test(p.field)));
      for (const target of places) {
        const build = (values: Tenant, name: string) => sample(name, params.find((p) => p.name === name)?.schema ?? {}, values, path);
        let url = path;
        const query = new URLSearchParams();
        for (const p of params) {
          const probed = target.where !== 'body' && target.field === p.name;
          const kind = kindOf(p.name, path);
          // A list of ids: the caller's own, and in the probe the other tenant's after it.
          const value = isIdList(p) ? (probed ? [caller.ids[kind], other.ids[kind]] : [caller.ids[kind]]) : probed ? other.ids[kind] : build(caller, p.name);
          if (p.in === 'path') url = url.replace(`{${p.name}}`, String(value));
          else if (isIdParam(p) || p.required) query.set(p.name, Array.isArray(value) ? value.join(',') : String(value));
        }
        let body: Record<string, unknown> | undefined;
        if (bodySchema) {
          body = sample('body', bodySchema, caller, path) as Record<string, unknown>;
          balanceManualEntry(path, body);
          documentBodyOnly(path, body);
          // A bill's or invoice's payments name bank transactions: none of the caller's (a valid body), the other's as the probe.
          if ('connectedTransactions' in body)
            body.connectedTransactions = target.field === 'connectedTransactions.id' ? [{ id: other.ids.transaction, amount: 0.01 }] : [];
          // Likewise payments by journals and credits, and the bills and invoices a journal pays: the other's document of that kind as the probe.
          for (const [list, kind] of Object.entries(CONNECTION_KINDS))
            if (list in body) body[list] = target.field === `${list}.id` ? [{ id: other.ids[kind], amount: 0.01 }] : [];
          if (target.where === 'body' && target.field !== 'connectedTransactions.id' && !(target.field.replace(/\.id$/, '') in CONNECTION_KINDS))
            setAt(body, target.place, other.ids[kindOf(String(target.place.filter((k) => typeof k === 'string').at(-1)), path)]);
          // A field both in the query and the body (DELETE /categories/delete): the route reads one, both carry the other tenant's id.
          else if (target.field in body)
            body[target.field] = Array.isArray(body[target.field]) ? [other.ids[kindOf(target.field, path)]] : other.ids[kindOf(target.field, path)];
        }
        const qs = query.toString();
        out.push({ method: method.toUpperCase(), path, where: target.where, field: target.field, request: { path: qs ? `${url}?${qs}` : url, body } });
      }
    }
  }
  return out;
}

describe("another tenant's ids, generated from /docs/json", () => {
  it('cover the id-taking operations of every service', () => {
    const all = probes(a, b);
    const covered = new Set(all.map((p) => p.path));
    for (const path of [
      '/transactions',
      '/transactions/v2',
      '/billers/{id}',
      '/categories/move',
      '/accounts/{id}',
      '/transactions/merge',
      '/general-ledger/csv',
      '/financial-data/profit-loss/v3',
    ])
      expect(covered, path).toContain(path);
    // Team and firm routes get an id of the kind they name, never the transaction fallback.
    const kinds = Object.fromEntries(
      all.map((p) => [`${p.method} ${p.path} ${p.field}`, CONNECTION_KINDS[p.field.replace(/\.id$/, '')] ?? kindOf(p.field.split('.').at(-1) ?? '', p.path)]),
    );
    expect(kinds).toMatchObject({
      'DELETE /workspace/{id} id': 'workspace',
      'PATCH /workspace id': 'workspace',
      'PATCH /members/{id} id': 'member',
      'DELETE /members/{id} id': 'member',
      'POST /revoke-invite id': 'invite',
      'PATCH /invites/{id} id': 'invite',
      'PATCH /invites/{id} workspaceIds': 'workspace',
      'GET /accounting-firm/member/{id} id': 'firmMember',
      'PATCH /accounting-firm/member-access/{id} id': 'firmMember',
      'PATCH /accounting-firm/member-access/{id} organizationIds': 'organization',
      'GET /accounting-firm/invite/{id} id': 'firmInvite',
      'DELETE /accounting-firm/organization/{id} id': 'organization',
      'PATCH /accounting-firm/make-default-org/{id} id': 'organization',
      'POST /accounting-firm/add-organization organizationId': 'organization',
      'POST /accounting-firm/invite organizationIds': 'organization',
      'GET /vendors/{id} id': 'vendor',
      'PATCH /vendors/{id} id': 'vendor',
      'DELETE /vendors/{id} id': 'vendor',
      'POST /vendors/merge parentVendorId': 'vendor',
      'POST /vendors/merge mergingVendorsId': 'otherVendor',
      'GET /customers/{id} id': 'customer',
      'PATCH /customers/{id} id': 'customer',
      'DELETE /customers/{id} id': 'customer',
      'PATCH /transactions transactions.vendorId': 'vendor',
      'GET /vendors/vendor-credit/{id} id': 'vendorCredit',
      'PATCH /vendors/vendor-credit/{id} id': 'vendorCredit',
      'DELETE /customers/credit-memo/{id} id': 'creditMemo',
      'PATCH /vendors/rule-engines/{id} id': 'rule',
      'POST /vendors/rule-engines sourceId': 'bankAccount',
      'GET /accounting/bill/{id} id': 'bill',
      'PUT /accounting/bill/{id} id': 'bill',
      'POST /accounting/bill/void/{id} id': 'bill',
      'POST /accounting/bill/v2 vendorId': 'vendor',
      'POST /accounting/bill/v2 lineItems.categoryId': 'category',
      'GET /accounting/bills vendorId': 'vendor',
      'DELETE /accounting/invoice/{id} id': 'invoice',
      'POST /accounting/invoice/v2 customerId': 'customer',
      'GET /invoices/csv customerId': 'customer',
      'PATCH /drafts id': 'draft',
      'POST /accounting/drafts/create-bills draftIds': 'draft',
      'DELETE /drafts draftIds': 'draft',
      'DELETE /drafts/bulk-delete bulkUploadId': 'bulkUpload',
      'POST /drafts bulkUploadId': 'bulkUpload',
      'POST /drafts metaData.uploadId': 'upload',
      'POST /drafts metaData.vendorId': 'vendor',
      'PATCH /drafts metaData.lineItems.categoryId': 'category',
      'GET /accounting/fixed-asset/{id} id': 'fixedAsset',
      'DELETE /accounting/fixed-asset/{id} id': 'fixedAsset',
      'POST /accounting/fixed-asset/stop/{id} id': 'fixedAsset',
      'POST /accounting/fixed-asset transactionId': 'transaction',
      'POST /accounting/fixed-asset assetTypeId': 'assetAccount',
      'GET /accounting/manual-entry/{id} id': 'manualEntry',
      'PUT /accounting/invoice/{id} customerId': 'customer',
      'POST /accounting/manual-entry/void/{id} id': 'manualEntry',
      'POST /accounting/manual-entry/check lineItems.categoryId': 'category',
    });
    for (const [probe, kind] of Object.entries(kinds))
      if (/^\S+ \/(members|invites|revoke-invite|workspace(?!-uploads)|accounting-firm|vendors|customers|accounting\/fixed-asset\/)/.test(probe))
        expect(kind, probe).not.toBe('transaction');
    // A vendor id anywhere is a vendor's, never a merchant's (biller) as before vendors existed.
    // (connectedVendorCredits holds vendor credits' ids.)
    for (const [probe, kind] of Object.entries(kinds)) {
      const field = probe.split(' ').at(-1) ?? '';
      if (/vendor/i.test(field) && !(field.replace(/\.id$/, '') in CONNECTION_KINDS)) expect(kind, probe).toMatch(/^(vendor|otherVendor)$/);
    }
    expect(kinds['PUT /accounting/bill/{id} connectedVendorCredits.id']).toBe('vendorCredit');
    expect(all.length).toBeGreaterThan(60);
    // A bill's and an invoice's payments are probed with the other tenant's bank transaction.
    for (const path of ['/accounting/bill/v2', '/accounting/invoice/{id}'])
      expect(
        all.some((p) => p.path === path && p.field === 'connectedTransactions.id'),
        path,
      ).toBe(true);
    // A query of comma-joined ids (told by its description or its name) carries the other tenant's id inside the caller's list.
    const lists = Object.fromEntries(
      all
        .filter((p) => p.where === 'query')
        .map((p) => [`${p.method} ${p.path} ${p.field}`, new URL(p.request.path, 'http://probe').searchParams.get(p.field)]),
    );
    expect(lists).toMatchObject({
      'GET /jobs/categorization transactions': `${a.ids.transaction},${b.ids.transaction}`,
      'GET /transactions/v2 billers': `${a.ids.biller},${b.ids.biller}`,
      'GET /dashboard workspaces': `${a.workspace},${b.workspace}`,
      'GET /transactions/v2 accountId': b.ids.bankAccount,
      'DELETE /drafts draftIds': `${a.ids.draft},${b.ids.draft}`,
    });
    expect(
      Object.keys(lists).filter((k) => /\b(status|groups|tags)$/.test(k)),
      'lists that are not ids',
    ).toEqual([]);
    // And with the other tenant's journals, credits, bills and invoices inside the payment lists.
    for (const [path, field] of [
      ['/accounting/bill/v2', 'connectedVendorCredits.id'],
      ['/accounting/invoice/{id}', 'connectedCreditMemos.id'],
      ['/accounting/bill/{id}', 'connectedManualEntries.id'],
      ['/accounting/manual-entry/v2', 'connectedBills.id'],
      ['/accounting/payment-details/check', 'connectedInvoices.id'],
      ['/invoice/{id}/pdf', 'id'],
    ]) {
      expect(
        all.some((p) => p.path === path && p.field === field),
        `${path} ${field}`,
      ).toBe(true);
    }
  });

  it('in a path, a query or a body: 404 in the documented shape, and the books of both tenants unchanged', async () => {
    const before = [await booksHash(a.workspace), await booksHash(b.workspace), await partiesHash(a), await partiesHash(b)];
    const wrong: string[] = [];
    for (const [caller, other] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const p of probes(caller, other)) {
        const r = await system.api(p.method, p.request.path, { token: caller.token, workspace: caller.workspace, body: p.request.body });
        const shaped = r.body && typeof r.body.message === 'string' && typeof r.body.appErrorCode === 'string' && r.body.statusCode === r.status;
        if (r.status !== 404 || !shaped) wrong.push(`${p.method} ${p.path} ${p.where} ${p.field}: ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect([await booksHash(a.workspace), await booksHash(b.workspace), await partiesHash(a), await partiesHash(b)]).toEqual(before);
  }, 240_000);

  it('the 404 names the field inside the body', async () => {
    const vendor = await system.api('PATCH', '/transactions', {
      token: a.token,
      workspace: a.workspace,
      body: { transactions: [{ id: a.ids.transaction, vendorId: b.ids.vendor }] },
    });
    expect(vendor).toMatchObject({ status: 404, body: { statusCode: 404, errors: [{ field: 'transactions.0.vendorId' }] } });
    // The tenant's own vendor is accepted in the same place: the 404 is about whose vendor it is.
    const own = await system.api('PATCH', '/transactions', {
      token: a.token,
      workspace: a.workspace,
      body: { transactions: [{ id: a.ids.transaction, vendorId: a.ids.vendor }] },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const merge = await system.api('POST', '/vendors/merge', {
      token: a.token,
      workspace: a.workspace,
      body: { parentVendorId: a.ids.vendor, mergingVendorsId: [b.ids.otherVendor] },
    });
    expect(merge).toMatchObject({ status: 404, body: { statusCode: 404, errors: [{ field: 'mergingVendorsId' }] } });
    const parent = await system.api('POST', '/vendors/merge', {
      token: a.token,
      workspace: a.workspace,
      body: { parentVendorId: b.ids.vendor, mergingVendorsId: [a.ids.otherVendor] },
    });
    expect(parent).toMatchObject({ status: 404, body: { statusCode: 404, errors: [{ field: 'parentVendorId' }] } });
    // The other tenant's workspace as the one to act in: the header is named, so the web app knows its selection is gone.
    const header = await system.api('GET', '/vendors', { token: a.token, workspace: b.workspace });
    expect(header).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Workspace not found', errors: [{ field: 'x-workspace-id' }] } });
    for (const path of [`/vendors/${b.ids.vendor}`, `/customers/${b.ids.customer}`]) {
      expect((await system.api('GET', path, { token: a.token, workspace: a.workspace })).status, path).toBe(404);
    }
    const category = await system.api('PATCH', `/transactions/${a.ids.transaction}`, {
      token: a.token,
      workspace: a.workspace,
      body: { categoryId: b.ids.category },
    });
    expect(category).toMatchObject({ status: 404, body: { statusCode: 404, message: 'Category not found', errors: [{ field: 'categoryId' }] } });
    const filter = await system.api('GET', `/transactions/v2?billers=${b.ids.biller}`, { token: a.token, workspace: a.workspace });
    expect(filter).toMatchObject({ status: 404, body: { errors: [{ field: 'billers' }] } });
  });
});
