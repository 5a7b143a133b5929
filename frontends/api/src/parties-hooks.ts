// react-query hooks for vendors, customers and vendor rules (parties.ts and parties-rules.ts have the calls and types).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Download } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { ledgerQueryKeys } from './ledger-hooks';
import {
  partiesApi,
  type Customer,
  type CustomerAnswer,
  type CustomerBody,
  type CustomerList,
  type CustomerListFilters,
  type PartiesMessage,
  type Vendor,
  type VendorAnswer,
  type VendorBody,
  type VendorDeleted,
  type VendorList,
  type VendorListFilters,
  type VendorMergeBody,
  type VendorMerged,
} from './parties';
import { vendorRulesApi, type VendorRule, type VendorRuleBody, type VendorRuleList } from './parties-rules';

export const partiesQueryKeys = {
  /** Every query of this area starts with it, so one invalidation reaches them all. */
  all: ['parties'] as const,
  vendors: ['parties', 'vendors'] as const,
  vendorList: (f: VendorListFilters) => ['parties', 'vendors', 'list', f] as const,
  vendor: (id: string) => ['parties', 'vendors', 'one', id] as const,
  customers: ['parties', 'customers'] as const,
  customerList: (f: CustomerListFilters) => ['parties', 'customers', 'list', f] as const,
  customer: (id: string) => ['parties', 'customers', 'one', id] as const,
  rules: ['parties', 'rules'] as const,
  rule: (id: string) => ['parties', 'rules', 'one', id] as const,
};

/** GET /vendors, 20 a page (spec §9); the next page comes with `fetchNextPage` (the screen's infinite scroll). */
export function useVendorList(filters: VendorListFilters) {
  const { client } = useApiContext();
  return useInfiniteQuery<VendorList, ApiError, InfiniteData<VendorList, number>, ReturnType<typeof partiesQueryKeys.vendorList>, number>({
    queryKey: partiesQueryKeys.vendorList(filters),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => partiesApi.listVendors(client, filters, pageParam, signal),
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
  });
}

/** GET /vendors/{id}; null disables it. */
export function useVendor(id: string | null) {
  const { client } = useApiContext();
  return useQuery<Vendor, ApiError>({
    queryKey: partiesQueryKeys.vendor(id ?? ''),
    queryFn: ({ signal }) => partiesApi.getVendor(client, id ?? '', signal),
    enabled: id !== null,
  });
}

function useVendorsChanged() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: partiesQueryKeys.vendors });
    // A merge or delete changes which vendor a transaction shows.
    await queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
  };
}

/** POST /vendors. */
export function useCreateVendor() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorAnswer, ApiError, VendorBody>({ mutationFn: (body) => partiesApi.createVendor(client, body), onSuccess: changed });
}

/** PATCH /vendors/{id} (only the fields sent change). */
export function useUpdateVendor() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorAnswer, ApiError, { id: string; body: VendorBody }>({ mutationFn: ({ id, body }) => partiesApi.updateVendor(client, id, body), onSuccess: changed });
}

/** DELETE /vendors/{id}: `deleted: false` when the server made the vendor inactive instead (it has transactions). */
export function useDeleteVendor() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorDeleted, ApiError, string>({ mutationFn: (id) => partiesApi.deleteVendor(client, id), onSuccess: changed });
}

/** POST /vendors/merge (parentVendorId, mergingVendorsId). */
export function useMergeVendors() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorMerged, ApiError, VendorMergeBody>({ mutationFn: (body) => partiesApi.mergeVendors(client, body), onSuccess: changed });
}

/** GET /vendors/csv with the list's filters; the server names the file (content-disposition). */
export function useVendorsCsv() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, VendorListFilters>({ mutationFn: (f) => partiesApi.vendorsCsv(client, f) });
}

/** GET /customers, 20 a page (spec §9). */
export function useCustomerList(filters: CustomerListFilters) {
  const { client } = useApiContext();
  return useInfiniteQuery<CustomerList, ApiError, InfiniteData<CustomerList, number>, ReturnType<typeof partiesQueryKeys.customerList>, number>({
    queryKey: partiesQueryKeys.customerList(filters),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => partiesApi.listCustomers(client, filters, pageParam, signal),
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
  });
}

/** GET /customers/{id}; null disables it. */
export function useCustomer(id: string | null) {
  const { client } = useApiContext();
  return useQuery<Customer, ApiError>({
    queryKey: partiesQueryKeys.customer(id ?? ''),
    queryFn: ({ signal }) => partiesApi.getCustomer(client, id ?? '', signal),
    enabled: id !== null,
  });
}

function useCustomersChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: partiesQueryKeys.customers });
}

export function useCreateCustomer() {
  const { client } = useApiContext();
  const changed = useCustomersChanged();
  return useMutation<CustomerAnswer, ApiError, CustomerBody>({ mutationFn: (body) => partiesApi.createCustomer(client, body), onSuccess: changed });
}

export function useUpdateCustomer() {
  const { client } = useApiContext();
  const changed = useCustomersChanged();
  return useMutation<CustomerAnswer, ApiError, { id: string; body: CustomerBody }>({ mutationFn: ({ id, body }) => partiesApi.updateCustomer(client, id, body), onSuccess: changed });
}

export function useDeleteCustomer() {
  const { client } = useApiContext();
  const changed = useCustomersChanged();
  return useMutation<PartiesMessage, ApiError, string>({ mutationFn: (id) => partiesApi.deleteCustomer(client, id), onSuccess: changed });
}

/** GET /customers/csv with the list's filters. */
export function useCustomersCsv() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, CustomerListFilters>({ mutationFn: (f) => partiesApi.customersCsv(client, f) });
}

/** GET /vendors/rule-engines (see parties-rules.ts: written from the spec until the routes are generated). */
export function useVendorRules() {
  const { client } = useApiContext();
  return useQuery<VendorRuleList, ApiError>({ queryKey: partiesQueryKeys.rules, queryFn: ({ signal }) => vendorRulesApi.list(client, signal), retry: false });
}

export function useVendorRule(id: string | null) {
  const { client } = useApiContext();
  return useQuery<VendorRule, ApiError>({ queryKey: partiesQueryKeys.rule(id ?? ''), queryFn: ({ signal }) => vendorRulesApi.get(client, id ?? '', signal), enabled: id !== null, retry: false });
}

function useRulesChanged() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: partiesQueryKeys.rules });
    // A rule applies to existing transactions (their category and vendor) and sets a vendor's hasRule.
    await queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
    await queryClient.invalidateQueries({ queryKey: partiesQueryKeys.vendors });
  };
}

export function useSaveVendorRule() {
  const { client } = useApiContext();
  const changed = useRulesChanged();
  return useMutation<{ message: string }, ApiError, { id: string | null; body: VendorRuleBody }>({
    mutationFn: ({ id, body }) => (id === null ? vendorRulesApi.create(client, body) : vendorRulesApi.update(client, id, body)),
    onSuccess: changed,
  });
}

export function useDeleteVendorRule() {
  const { client } = useApiContext();
  const changed = useRulesChanged();
  return useMutation<{ message: string }, ApiError, string>({ mutationFn: (id) => vendorRulesApi.remove(client, id), onSuccess: changed });
}
