import { isUuid } from '@ledgerline/platform';

/** Spec §9: vendor and customer lists page 20 at a time, at most 100. */
export const PAGE_SIZE = 20;
export const PAGE_MAX = 100;

export const PARTY_STATUSES = ['active', 'inactive'] as const;
export type PartyStatus = (typeof PARTY_STATUSES)[number];

/** The wording of the service's refusals (spec §5 where it gives one; ours where it does not). */
export const MSG = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 200 characters',
  vendorNameTaken: 'A vendor with this name already exists',
  customerNameTaken: 'A customer with this name already exists',
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  email: 'Please enter a valid email.',
  ein: 'EIN must be 9 digits (XX-XXXXXXX)',
  status: 'status must be active or inactive',
  metaData: 'metaData must be an object of at most 50 string or number values',
  uuid: (field: string) => `${field} must be a UUID`,
  mergeEmpty: 'Vendor merge needs a non-empty list of vendor ids',
  mergeParentInList: 'The parent vendor cannot be merged into itself',
  vendorNotFound: 'Vendor not found',
  customerNotFound: 'Customer not found',
  page: 'page must be at least 1',
  take: 'take must be between 1 and 100',
  filter: 'filter must be added or not-added',
} as const;

export interface FieldProblem {
  field: string;
  message: string;
}

/** The editable text of a party and its limits (spec §5: company name 100, company address 300). */
const LIMITS = { name: 200, description: 1000, address: 300, bankDetails: 500, companyName: 100, email: 254 } as const;

export interface VendorInput {
  name?: string;
  description?: string;
  address?: string;
  bankDetails?: string;
  email?: string;
  is1099Eligible?: boolean;
  ein?: string;
  status?: string;
  metaDataJson?: string;
}

export interface CustomerInput {
  name?: string;
  companyName?: string;
  email?: string;
  description?: string;
  address?: string;
  bankDetails?: string;
  status?: string;
  metaDataJson?: string;
}

/** Clean values of a vendor or customer (text trimmed, email lower-cased, EIN as XX-XXXXXXX). */
export interface CleanParty {
  name?: string;
  companyName?: string;
  description?: string;
  address?: string;
  bankDetails?: string;
  email?: string;
  is1099Eligible?: boolean;
  ein?: string;
  status?: PartyStatus;
  metaData?: Record<string, string | number>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks and cleans a vendor's or customer's fields. `creating`: the name is required. */
export function cleanParty(input: VendorInput & CustomerInput, creating: boolean): { value: CleanParty; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const value: CleanParty = {};
  if (input.name !== undefined || creating) {
    const name = (input.name ?? '').trim();
    if (name === '') problems.push({ field: 'name', message: MSG.nameRequired });
    else if (name.length > LIMITS.name) problems.push({ field: 'name', message: MSG.nameTooLong });
    else value.name = name;
  }
  for (const field of ['companyName', 'description', 'address', 'bankDetails'] as const) {
    const raw = input[field];
    if (raw === undefined) continue;
    const text = raw.trim();
    if (text.length > LIMITS[field]) problems.push({ field, message: MSG.tooLong(field, LIMITS[field]) });
    else value[field] = text;
  }
  if (input.email !== undefined) {
    const email = input.email.trim().toLowerCase();
    if (email !== '' && (email.length > LIMITS.email || !EMAIL.test(email))) problems.push({ field: 'email', message: MSG.email });
    else value.email = email;
  }
  if (input.is1099Eligible !== undefined) value.is1099Eligible = input.is1099Eligible;
  if (input.ein !== undefined) {
    const digits = input.ein.replace(/[\s-]/g, '');
    if (digits === '') value.ein = '';
    else if (!/^\d{9}$/.test(digits)) problems.push({ field: 'ein', message: MSG.ein });
    else value.ein = `${digits.slice(0, 2)}-${digits.slice(2)}`;
  }
  if (input.status !== undefined) {
    if ((PARTY_STATUSES as readonly string[]).includes(input.status)) value.status = input.status as PartyStatus;
    else problems.push({ field: 'status', message: MSG.status });
  }
  if (input.metaDataJson !== undefined) {
    const meta = metaDataOf(input.metaDataJson);
    if (meta) value.metaData = meta;
    else problems.push({ field: 'metaData', message: MSG.metaData });
  }
  return { value, problems };
}

/** A metaData object (string to string or number, at most 50 keys of 100 and values of 500 characters), or null. */
export function metaDataOf(json: string): Record<string, string | number> | null {
  if (json === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > 50) return null;
  for (const [k, v] of entries) {
    if (k.length > 100) return null;
    if (typeof v === 'string' ? v.length > 500 : !(typeof v === 'number' && Number.isFinite(v))) return null;
  }
  return parsed as Record<string, string | number>;
}

export interface ListQuery {
  page: number;
  take: number;
  search: string;
  status: '' | PartyStatus;
  filter: '' | 'added' | 'not-added';
  all: boolean;
}

/** Paging and filters of a list (spec §5: page ≥ 1, take 1..100, default 20). */
export function cleanListQuery(q: { page: number; take: number; search: string; status: string; filter?: string; all: boolean }): {
  value: ListQuery;
  problems: FieldProblem[];
} {
  const problems: FieldProblem[] = [];
  const page = q.page === 0 ? 1 : q.page;
  const take = q.take === 0 ? PAGE_SIZE : q.take;
  if (!Number.isInteger(page) || page < 1) problems.push({ field: 'page', message: MSG.page });
  if (!Number.isInteger(take) || take < 1 || take > PAGE_MAX) problems.push({ field: 'take', message: MSG.take });
  if (q.status !== '' && !(PARTY_STATUSES as readonly string[]).includes(q.status)) problems.push({ field: 'status', message: MSG.status });
  const filter = q.filter ?? '';
  if (filter !== '' && filter !== 'added' && filter !== 'not-added') problems.push({ field: 'filter', message: MSG.filter });
  const search = q.search.trim().slice(0, 200);
  return { value: { page, take, search, status: q.status as ListQuery['status'], filter: filter as ListQuery['filter'], all: q.all }, problems };
}

/** The paging summary of a list (the shape GET /transactions/v2 answers). */
export function pageMeta(page: number, take: number, itemCount: number) {
  const pageCount = Math.ceil(itemCount / take);
  return { page, take, itemCount, pageCount, hasPreviousPage: page > 1, hasNextPage: page < pageCount };
}

/** Merge request rules (spec §5): a parent, a non-empty list of other vendor ids. */
export function mergeProblems(parentId: string, mergingIds: readonly string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isUuid(parentId)) problems.push({ field: 'parentVendorId', message: MSG.uuid('parentVendorId') });
  if (mergingIds.length === 0) problems.push({ field: 'mergingVendorsId', message: MSG.mergeEmpty });
  else if (mergingIds.some((id) => !isUuid(id))) problems.push({ field: 'mergingVendorsId', message: MSG.uuid('mergingVendorsId') });
  else if (mergingIds.includes(parentId)) problems.push({ field: 'mergingVendorsId', message: MSG.mergeParentInList });
  return problems;
}
