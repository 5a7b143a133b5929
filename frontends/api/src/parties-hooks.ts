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
  type CustomerDeleted,
  type CustomerList,
  type CustomerListFilters,
  type Vendor,
  type VendorAnswer,
  type VendorBody,
  type VendorDeleted,
  type VendorList,
  type VendorListFilters,
  type VendorMergeBody,
  type VendorMerged,
} from './parties';
import { creditsApi, type CreditKind, type PartyCredit, type PartyCreditAnswer, type PartyCreditBody, type PartyCreditList } from './parties-credits';
import { vendorRulesApi, type VendorRule, type VendorRuleBody, type VendorRuleList } from './parties-rules';
import { afterBooksChanged } from './reports-hooks';

export const partiesQueryKeys = {
  /** Every query of this area starts with it, so one invalidation reaches them all. */
  all: ['parties'] as const,
  vendors: ['parties', 'vendors'] as const,
  vendorLists: ['parties', 'vendors', 'list'] as const,
  vendorList: (f: VendorListFilters) => ['parties', 'vendors', 'list', f] as const,
  vendor: (id: string) => ['parties', 'vendors', 'one', id] as const,
  customers: ['parties', 'customers'] as const,
  customerLists: ['parties', 'customers', 'list'] as const,
  customerList: (f: CustomerListFilters) => ['parties', 'customers', 'list', f] as const,
  customer: (id: string) => ['parties', 'customers', 'one', id] as const,
  rules: ['parties', 'rules'] as const,
  rule: (id: string) => ['parties', 'rules', 'one', id] as const,
  credits: (kind: CreditKind) => ['parties', 'credits', kind] as const,
  creditList: (kind: CreditKind) => ['parties', 'credits', kind, 'list'] as const,
  credit: (kind: CreditKind, id: string) => ['parties', 'credits', kind, 'one', id] as const,
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

/**
 * After a vendor change: the lists are asked again (not awaited: the dialog that made the change closes at once), the
 * changed vendor's own query takes the answer, a deleted or merged one is forgotten (it answers 404 now), and the
 * transactions are refreshed (a merge or delete changes which vendor they show).
 */
function useVendorsChanged() {
  const queryClient = useQueryClient();
  return (answer: { vendor?: Vendor; gone?: readonly string[] }) => {
    for (const id of answer.gone ?? []) queryClient.removeQueries({ queryKey: partiesQueryKeys.vendor(id), exact: true });
    if (answer.vendor) queryClient.setQueryData(partiesQueryKeys.vendor(answer.vendor.id), answer.vendor);
    void queryClient.invalidateQueries({ queryKey: partiesQueryKeys.vendorLists });
    void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
  };
}

/** POST /vendors. */
export function useCreateVendor() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorAnswer, ApiError, VendorBody>({
    mutationFn: (body) => partiesApi.createVendor(client, body),
    onSuccess: (answer) => changed({ vendor: answer.vendor }),
  });
}

/** PATCH /vendors/{id} (only the fields sent change). */
export function useUpdateVendor() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorAnswer, ApiError, { id: string; body: VendorBody }>({
    mutationFn: ({ id, body }) => partiesApi.updateVendor(client, id, body),
    onSuccess: (answer) => changed({ vendor: answer.vendor }),
  });
}

/** DELETE /vendors/{id}: `deleted: false` when the server made the vendor inactive instead (it has transactions). */
export function useDeleteVendor() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorDeleted, ApiError, string>({
    mutationFn: (id) => partiesApi.deleteVendor(client, id),
    onSuccess: (answer, id) => changed(answer.deleted ? { gone: [id] } : { vendor: answer.vendor }),
  });
}

/** POST /vendors/merge (parentVendorId, mergingVendorsId). */
export function useMergeVendors() {
  const { client } = useApiContext();
  const changed = useVendorsChanged();
  return useMutation<VendorMerged, ApiError, VendorMergeBody>({
    mutationFn: (body) => partiesApi.mergeVendors(client, body),
    onSuccess: (answer, body) => changed({ vendor: answer.vendor, gone: body.mergingVendorsId ?? [] }),
  });
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

/** After a customer change, as for vendors: lists asked again (not awaited), the customer's own query updated or forgotten. */
function useCustomersChanged() {
  const queryClient = useQueryClient();
  return (answer: { customer?: Customer; gone?: string }) => {
    if (answer.gone) queryClient.removeQueries({ queryKey: partiesQueryKeys.customer(answer.gone), exact: true });
    if (answer.customer) queryClient.setQueryData(partiesQueryKeys.customer(answer.customer.id), answer.customer);
    void queryClient.invalidateQueries({ queryKey: partiesQueryKeys.customerLists });
  };
}

export function useCreateCustomer() {
  const { client } = useApiContext();
  const changed = useCustomersChanged();
  return useMutation<CustomerAnswer, ApiError, CustomerBody>({
    mutationFn: (body) => partiesApi.createCustomer(client, body),
    onSuccess: (answer) => changed({ customer: answer.customer }),
  });
}

export function useUpdateCustomer() {
  const { client } = useApiContext();
  const changed = useCustomersChanged();
  return useMutation<CustomerAnswer, ApiError, { id: string; body: CustomerBody }>({
    mutationFn: ({ id, body }) => partiesApi.updateCustomer(client, id, body),
    onSuccess: (answer) => changed({ customer: answer.customer }),
  });
}

export function useDeleteCustomer() {
  const { client } = useApiContext();
  const changed = useCustomersChanged();
  return useMutation<CustomerDeleted, ApiError, string>({
    mutationFn: (id) => partiesApi.deleteCustomer(client, id),
    onSuccess: (_answer, id) => changed({ gone: id }),
  });
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
  return useQuery<VendorRule, ApiError>({
    queryKey: partiesQueryKeys.rule(id ?? ''),
    queryFn: ({ signal }) => vendorRulesApi.get(client, id ?? '', signal),
    enabled: id !== null,
    retry: false,
  });
}

function useRulesChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: partiesQueryKeys.rules });
    // A rule applies to existing transactions (their category and vendor) and sets a vendor's hasRule.
    void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
    void queryClient.invalidateQueries({ queryKey: partiesQueryKeys.vendors });
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

/** GET /vendors/vendor-credits or /customers/credit-memos, 20 a page, newest first (the screen's infinite scroll asks for more). */
export function useCreditList(kind: CreditKind) {
  const { client } = useApiContext();
  return useInfiniteQuery<PartyCreditList, ApiError, InfiniteData<PartyCreditList, number>, ReturnType<typeof partiesQueryKeys.creditList>, number>({
    queryKey: partiesQueryKeys.creditList(kind),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => creditsApi.list(client, kind, pageParam, signal),
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
  });
}

/** GET /vendors/vendor-credit/{id} or /customers/credit-memo/{id}; null disables it. */
export function useCredit(kind: CreditKind, id: string | null) {
  const { client } = useApiContext();
  return useQuery<PartyCredit, ApiError>({
    queryKey: partiesQueryKeys.credit(kind, id ?? ''),
    queryFn: ({ signal }) => creditsApi.get(client, kind, id ?? '', signal),
    enabled: id !== null,
  });
}

/**
 * After a credit change: its lists are asked again, its own query takes the answer (or is forgotten when deleted),
 * the party's credit totals change (vendors, customers) and so do the books (each credit posts a ledger entry): the
 * reports wait for the change's seq.
 */
function useCreditsChanged(kind: CreditKind) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return (answer: { credit?: PartyCredit; gone?: string; seq: number }) => {
    if (answer.gone) queryClient.removeQueries({ queryKey: partiesQueryKeys.credit(kind, answer.gone), exact: true });
    if (answer.credit) queryClient.setQueryData(partiesQueryKeys.credit(kind, answer.credit.id), answer.credit);
    void queryClient.invalidateQueries({ queryKey: partiesQueryKeys.creditList(kind) });
    void queryClient.invalidateQueries({ queryKey: kind === 'vendor' ? partiesQueryKeys.vendors : partiesQueryKeys.customers });
    void afterBooksChanged(client, queryClient, answer.seq);
  };
}

/** POST (id null) or PATCH a vendor credit or credit memo. */
export function useSaveCredit(kind: CreditKind) {
  const { client } = useApiContext();
  const changed = useCreditsChanged(kind);
  return useMutation<PartyCreditAnswer, ApiError, { id: string | null; body: PartyCreditBody }>({
    mutationFn: ({ id, body }) => (id === null ? creditsApi.create(client, kind, body) : creditsApi.update(client, kind, id, body)),
    onSuccess: (answer) => changed({ credit: answer.credit, seq: answer.seq }),
  });
}

/** DELETE a vendor credit or credit memo (the ledger reverses its entry). */
export function useDeleteCredit(kind: CreditKind) {
  const { client } = useApiContext();
  const changed = useCreditsChanged(kind);
  return useMutation<{ message: string; seq: number }, ApiError, string>({
    mutationFn: (id) => creditsApi.remove(client, kind, id),
    onSuccess: (answer, id) => changed({ gone: id, seq: answer.seq }),
  });
}
