// Vendors and customers (spec documents-parties-integrations §2, §3, §5, §7, §9; the parties service's routes):
// the payload names of the generated OpenAPI shapes and one typed call per route. The hooks are in
// parties-hooks.ts; the screens' own rules (URL state, merge selection) live in the accounting remote.
import type { ApiClient, Download } from './client';
import type { operations } from './gen/schema';
import type { Schemas } from './types';

type JsonBody<K extends keyof operations> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? NonNullable<B> : never;

export type Vendor = Schemas['Vendor'];
export type Customer = Schemas['Customer'];
export type PartiesPageMeta = Schemas['PartiesPageMeta'];
export type VendorList = Schemas['VendorList'];
export type CustomerList = Schemas['CustomerList'];
export type VendorAnswer = Schemas['VendorAnswer'];
export type VendorDeleted = Schemas['VendorDeleted'];
export type VendorMerged = Schemas['VendorMerged'];
export type CustomerAnswer = Schemas['CustomerAnswer'];
export type CustomerDeleted = Schemas['CustomerDeleted'];
export type VendorBody = JsonBody<'createVendor'>;
export type CustomerBody = JsonBody<'createCustomer'>;
export type VendorMergeBody = JsonBody<'mergeVendors'>;
export type PartyStatus = Vendor['status'];

/** Spec §2, §9: vendor and customer lists page 20 at a time (the server allows at most 100). */
export const PARTIES_PAGE_SIZE = 20;
/** Spec platform-core §2 "added (Added, Not added)": the list filter values the server takes as `filter`. */
export const ADDED_FILTERS = [
  { value: 'added', label: 'Added' },
  { value: 'not-added', label: 'Not added' },
] as const;
export type AddedFilter = (typeof ADDED_FILTERS)[number]['value'];
export const PARTY_STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const satisfies readonly { value: PartyStatus; label: string }[];

/** What a vendor list is asked with (page aside); empty values are left out of the query. */
export interface VendorListFilters {
  search: string;
  status: PartyStatus | '';
  filter: AddedFilter | '';
}
export interface CustomerListFilters {
  search: string;
  status: PartyStatus | '';
}

/** The query of GET /vendors (and /vendors/csv without the paging). */
export function vendorsQuery(f: VendorListFilters, page: number, take = PARTIES_PAGE_SIZE) {
  return { page, take, search: f.search.trim() || undefined, status: f.status || undefined, filter: f.filter || undefined };
}
export function customersQuery(f: CustomerListFilters, page: number, take = PARTIES_PAGE_SIZE) {
  return { page, take, search: f.search.trim() || undefined, status: f.status || undefined };
}

export const partiesApi = {
  listVendors: (client: ApiClient, f: VendorListFilters, page: number, signal?: AbortSignal) =>
    client.get('/vendors', { params: { query: vendorsQuery(f, page) }, signal }),
  getVendor: (client: ApiClient, id: string, signal?: AbortSignal) => client.get('/vendors/{id}', { params: { path: { id } }, signal }),
  createVendor: (client: ApiClient, body: VendorBody) => client.post('/vendors', { body }),
  updateVendor: (client: ApiClient, id: string, body: VendorBody) => client.patch('/vendors/{id}', { params: { path: { id } }, body }),
  deleteVendor: (client: ApiClient, id: string) => client.delete('/vendors/{id}', { params: { path: { id } } }),
  mergeVendors: (client: ApiClient, body: VendorMergeBody) => client.post('/vendors/merge', { body }),
  vendorsCsv: (client: ApiClient, f: VendorListFilters): Promise<Download> => {
    const { page: _page, take: _take, ...query } = vendorsQuery(f, 1);
    return client.download('/vendors/csv', { params: { query } });
  },
  listCustomers: (client: ApiClient, f: CustomerListFilters, page: number, signal?: AbortSignal) =>
    client.get('/customers', { params: { query: customersQuery(f, page) }, signal }),
  getCustomer: (client: ApiClient, id: string, signal?: AbortSignal) => client.get('/customers/{id}', { params: { path: { id } }, signal }),
  createCustomer: (client: ApiClient, body: CustomerBody) => client.post('/customers', { body }),
  updateCustomer: (client: ApiClient, id: string, body: CustomerBody) => client.patch('/customers/{id}', { params: { path: { id } }, body }),
  deleteCustomer: (client: ApiClient, id: string) => client.delete('/customers/{id}', { params: { path: { id } } }),
  customersCsv: (client: ApiClient, f: CustomerListFilters): Promise<Download> => {
    const { page: _page, take: _take, ...query } = customersQuery(f, 1);
    return client.download('/customers/csv', { params: { query } });
  },
};
