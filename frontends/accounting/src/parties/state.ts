// The vendors and customers screens' own rules (spec documents-parties-integrations §2, §3, §5; platform-core §2):
// their state in the URL, the merge selection and the forms' fields. Pure, tested in test/parties-state.test.ts.
import {
  ADDED_FILTERS,
  PARTY_STATUSES,
  type AddedFilter,
  type Customer,
  type CustomerBody,
  type CustomerListFilters,
  type PartyStatus,
  type Vendor,
  type VendorBody,
  type VendorListFilters,
  type VendorMergeBody,
  type Transaction,
  type VendorRuleForm,
} from '@ledgerline/api';
import { vendorRuleForm } from './vendor-rules';
import { addYears } from '@ledgerline/ui';

/** Spec §2 page modes the parties tabs use: a list (idle), a new one (create), one open (view) or being edited (edit). */
export type PartyMode = 'idle' | 'create' | 'view' | 'edit';

export interface PartyScreen<F> {
  filters: F;
  /** The open vendor or customer (`?vendor=` / `?customer=`), or null. */
  openId: string | null;
  mode: PartyMode;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEARCH_MAX = 200;

const statusOf = (v: string | null): PartyStatus | '' => (PARTY_STATUSES.some((s) => s.value === v) ? (v as PartyStatus) : '');
const addedOf = (v: string | null): AddedFilter | '' => (ADDED_FILTERS.some((s) => s.value === v) ? (v as AddedFilter) : '');
const searchOf = (v: string | null): string => (v ?? '').slice(0, SEARCH_MAX);

function openOf(params: URLSearchParams, key: 'vendor' | 'customer'): { openId: string | null; mode: PartyMode } {
  const id = params.get(key);
  const openId = id !== null && UUID.test(id) ? id.toLowerCase() : null;
  const mode = params.get('mode');
  if (mode === 'create') return { openId: null, mode: 'create' };
  if (openId === null) return { openId: null, mode: 'idle' };
  return { openId, mode: mode === 'edit' ? 'edit' : 'view' };
}

/** The vendors tab from its query (`search`, `status`, `filter` = added | not-added, `vendor`, `mode`); a malformed value is its default. */
export function vendorScreenFromSearch(params: URLSearchParams): PartyScreen<VendorListFilters> {
  return {
    filters: { search: searchOf(params.get('search')), status: statusOf(params.get('status')), filter: addedOf(params.get('filter')) },
    ...openOf(params, 'vendor'),
  };
}

export function customerScreenFromSearch(params: URLSearchParams): PartyScreen<CustomerListFilters> {
  return { filters: { search: searchOf(params.get('search')), status: statusOf(params.get('status')) }, ...openOf(params, 'customer') };
}

/**
 * The query of a parties tab: `tab` first, then the filters that are set, the open one and its mode (view is the
 * default for an open one, idle for none, so neither is written). Parameters of no concern to the tab are dropped.
 */
export function partySearch(tab: 'vendors' | 'customers', screen: PartyScreen<VendorListFilters | CustomerListFilters>): URLSearchParams {
  const p = new URLSearchParams({ tab });
  const f = screen.filters;
  if (f.search.trim() !== '') p.set('search', f.search);
  if (f.status !== '') p.set('status', f.status);
  if ('filter' in f && f.filter !== '') p.set('filter', f.filter);
  const key = tab === 'vendors' ? 'vendor' : 'customer';
  if (screen.mode === 'create') p.set('mode', 'create');
  else if (screen.openId !== null) {
    p.set(key, screen.openId);
    if (screen.mode === 'edit') p.set('mode', 'edit');
  }
  return p;
}

// ——— Merge (spec §3 "Vendor merge payload: parentVendorId, mergingVendorsId"; §5 non-empty list) ———

export interface MergeSelection {
  parentId: string | null;
  /** In the order they were picked. */
  mergingIds: readonly string[];
}

export const EMPTY_MERGE: MergeSelection = { parentId: null, mergingIds: [] };

/** Choosing the parent takes it out of the vendors to merge (a vendor is not merged into itself). */
export function chooseParent(s: MergeSelection, parentId: string | null): MergeSelection {
  return { parentId, mergingIds: s.mergingIds.filter((id) => id !== parentId) };
}

/** Ticks or unticks a vendor to merge; the parent cannot be ticked. */
export function toggleMerging(s: MergeSelection, id: string): MergeSelection {
  if (id === s.parentId) return s;
  return { ...s, mergingIds: s.mergingIds.includes(id) ? s.mergingIds.filter((m) => m !== id) : [...s.mergingIds, id] };
}

export const MERGE_PARENT_MESSAGE = 'Choose the vendor to keep';
export const MERGE_LIST_MESSAGE = 'Vendor merge needs a non-empty list of vendor ids';

/** What stops the merge, or null when it can be confirmed. */
export function mergeProblem(s: MergeSelection): string | null {
  if (s.parentId === null) return MERGE_PARENT_MESSAGE;
  if (s.mergingIds.length === 0) return MERGE_LIST_MESSAGE;
  return null;
}

export function mergeBody(s: MergeSelection): VendorMergeBody | null {
  return mergeProblem(s) === null && s.parentId !== null ? { parentVendorId: s.parentId, mergingVendorsId: [...s.mergingIds] } : null;
}

/** The confirmation's sentence: "Merge Acme, Acme Inc. into Acme Corporation? Their transactions move to it." */
export function mergeConfirmation(s: MergeSelection, nameOf: (id: string) => string): string {
  const names = s.mergingIds.map(nameOf).join(', ');
  return `Merge ${names} into ${s.parentId === null ? '—' : nameOf(s.parentId)}? Their transactions, bills, credits and rules move to it, and the merged vendors are removed.`;
}

// ——— Forms (spec §3 fields) ———

export interface VendorForm {
  name: string;
  description: string;
  address: string;
  bankDetails: string;
  email: string;
  is1099Eligible: boolean;
  ein: string;
  status: PartyStatus;
}

export interface CustomerForm {
  name: string;
  companyName: string;
  email: string;
  description: string;
  address: string;
  bankDetails: string;
  status: PartyStatus;
  /** metaData as `key: value` lines. */
  metaData: string;
}

export function vendorForm(v: Vendor | null): VendorForm {
  return {
    name: v?.name ?? '',
    description: v?.description ?? '',
    address: v?.address ?? '',
    bankDetails: v?.bankDetails ?? '',
    email: v?.email.email ?? '',
    is1099Eligible: v?.is1099Eligible ?? false,
    ein: v?.ein ?? '',
    status: v?.status ?? 'active',
  };
}

export function customerForm(c: Customer | null): CustomerForm {
  return {
    name: c?.name ?? '',
    companyName: c?.companyName ?? '',
    email: c?.email.email ?? '',
    description: c?.description ?? '',
    address: c?.address ?? '',
    bankDetails: c?.bankDetails ?? '',
    status: c?.status ?? 'active',
    metaData: Object.entries(c?.metaData ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const NAME_REQUIRED = 'Name is required';
export const EMAIL_MESSAGE = 'Please enter a valid email.';
export const EIN_MESSAGE = 'EIN must be 9 digits (XX-XXXXXXX)';
export const META_MESSAGE = 'Write one "key: value" per line';

/** A 9-digit EIN typed with or without its dash, as XX-XXXXXXX; anything else as typed (the check refuses it). */
export function normalizeEin(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 9 && /^[\d\s-]+$/.test(text.trim()) ? `${digits.slice(0, 2)}-${digits.slice(2)}` : text.trim();
}

export function validateVendorForm(f: VendorForm): Partial<Record<keyof VendorForm, string>> {
  const e: Partial<Record<keyof VendorForm, string>> = {};
  if (f.name.trim() === '') e.name = NAME_REQUIRED;
  if (f.email.trim() !== '' && !EMAIL.test(f.email.trim())) e.email = EMAIL_MESSAGE;
  if (f.ein.trim() !== '' && !/^\d{2}-\d{7}$/.test(normalizeEin(f.ein))) e.ein = EIN_MESSAGE;
  return e;
}

/** metaData from `key: value` lines (numbers stay numbers); null when a line is not of that shape. */
export function parseMetaData(text: string): Record<string, string | number> | null {
  const out: Record<string, string | number> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf(':');
    if (at <= 0) return null;
    const key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    if (key === '') return null;
    out[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return out;
}

export function validateCustomerForm(f: CustomerForm): Partial<Record<keyof CustomerForm, string>> {
  const e: Partial<Record<keyof CustomerForm, string>> = {};
  if (f.name.trim() === '') e.name = NAME_REQUIRED;
  if (f.email.trim() !== '' && !EMAIL.test(f.email.trim())) e.email = EMAIL_MESSAGE;
  if (parseMetaData(f.metaData) === null) e.metaData = META_MESSAGE;
  return e;
}

/** The payload of a valid vendor form. Every field is sent, so clearing one clears it (an empty email clears it). */
export function vendorBody(f: VendorForm): VendorBody {
  return {
    name: f.name.trim(),
    description: f.description.trim(),
    address: f.address.trim(),
    bankDetails: f.bankDetails.trim(),
    email: { email: f.email.trim().toLowerCase() },
    is1099Eligible: f.is1099Eligible,
    ein: f.ein.trim() === '' ? '' : normalizeEin(f.ein),
    status: f.status,
  };
}

export function customerBody(f: CustomerForm): CustomerBody {
  return {
    name: f.name.trim(),
    companyName: f.companyName.trim(),
    email: { email: f.email.trim().toLowerCase() },
    description: f.description.trim(),
    address: f.address.trim(),
    bankDetails: f.bankDetails.trim(),
    status: f.status,
    metaData: parseMetaData(f.metaData) ?? {},
  };
}

/** Every row loaded so far, each once (a row can shift to the next page when one is added meanwhile). */
export function uniqueRows<T extends { id: string }>(pages: readonly { data: readonly T[] }[] | undefined): T[] {
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of pages ?? [])
    for (const row of page.data) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  return rows;
}

// ——— A rule made from a transaction (the drawer's "Create rule") ———

/**
 * The rule editor's fields for a rule like this transaction: its vendor and category, its description to contain
 * (what the bank calls it), named after it, from a year before its date (so the rule reaches the same payee's past
 * transactions, as a QuickBooks bank rule offers "apply to existing"). Everything stays editable before saving.
 */
export function ruleFormFromTransaction(t: Pick<Transaction, 'biller' | 'memo' | 'vendorId' | 'category' | 'dateTime'>): VendorRuleForm {
  const text = (t.biller?.name || t.memo || '').trim();
  const date = t.dateTime.slice(0, 10);
  return {
    ...vendorRuleForm(null),
    name: text === '' ? 'New rule' : `${text} rule`.slice(0, 200),
    vendorId: t.vendorId ?? '',
    categoryId: t.category?.id ?? '',
    ruleApplyDateTime: /^\d{4}-\d{2}-\d{2}$/.test(date) ? addYears(date, -1) : '',
    descriptionSign: 'contains',
    descriptionValue: text.slice(0, 200),
  };
}
