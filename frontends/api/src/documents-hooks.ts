// react-query hooks for bills, invoices and manual journals (documents.ts has the calls and types).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Download } from './client';
import { useApiContext } from './context';
import {
  documentsApi,
  type DocumentAnswer,
  type DocumentBodyOf,
  type DocumentKind,
  type DocumentList,
  type DocumentListFilters,
  type DocumentOf,
  type ManualEntryBody,
  type ManualEntryCheck,
  type RecurrenceBody,
} from './documents';
import type { ApiError } from './errors';
import type { Transaction } from './ledger';
import { ledgerQueryKeys } from './ledger-hooks';
import { afterBooksChanged } from './reports-hooks';

export const documentsQueryKeys = {
  all: ['documents'] as const,
  kind: (kind: DocumentKind) => ['documents', kind] as const,
  lists: (kind: DocumentKind) => ['documents', kind, 'list'] as const,
  list: (kind: DocumentKind, f: DocumentListFilters) => ['documents', kind, 'list', f] as const,
  one: (kind: DocumentKind, id: string) => ['documents', kind, 'one', id] as const,
  candidates: (kind: 'bill' | 'invoice', id: string | null) => ['documents', kind, 'payment-candidates', id ?? ''] as const,
};

/** GET /accounting/bills, /invoices or /manual-entries, 20 a page, newest first; `status` Posted or Voided ('' both). */
export function useDocumentList<K extends DocumentKind>(kind: K, filters: DocumentListFilters) {
  const { client } = useApiContext();
  return useInfiniteQuery<DocumentList<K>, ApiError, InfiniteData<DocumentList<K>, number>, ReturnType<typeof documentsQueryKeys.list>, number>({
    queryKey: documentsQueryKeys.list(kind, filters),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => documentsApi.list(client, kind, filters, pageParam, signal),
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
  });
}

/** GET one bill, invoice or manual journal; null disables it. */
export function useDocument<K extends DocumentKind>(kind: K, id: string | null) {
  const { client } = useApiContext();
  return useQuery<DocumentOf[K], ApiError>({
    queryKey: documentsQueryKeys.one(kind, id ?? ''),
    queryFn: ({ signal }) => documentsApi.get(client, kind, id ?? '', signal),
    enabled: id !== null,
  });
}

/**
 * After a change: the kind's lists are asked again, the document's own query takes the answer (or is forgotten once
 * deleted), the transactions are refreshed (a payment locks or releases one) and the reports wait for the seq.
 */
function useDocumentsChanged(kind: DocumentKind) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return (answer: { document: { id: string }; seq: number }, gone = false) => {
    const key = documentsQueryKeys.one(kind, answer.document.id);
    if (gone) queryClient.removeQueries({ queryKey: key, exact: true });
    else queryClient.setQueryData(key, answer.document);
    void queryClient.invalidateQueries({ queryKey: documentsQueryKeys.lists(kind) });
    void queryClient.invalidateQueries({ queryKey: ['documents', kind, 'payment-candidates'] });
    void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transactions });
    void afterBooksChanged(client, queryClient, answer.seq);
  };
}

/** POST …/v2 (id null) or PUT a bill, invoice or manual journal. */
export function useSaveDocument<K extends DocumentKind>(kind: K) {
  const { client } = useApiContext();
  const changed = useDocumentsChanged(kind);
  return useMutation<DocumentAnswer<K>, ApiError, { id: string | null; body: DocumentBodyOf[K] }>({
    mutationFn: ({ id, body }) => (id === null ? documentsApi.create(client, kind, body) : documentsApi.update(client, kind, id, body)),
    onSuccess: (answer) => changed(answer),
  });
}

/** POST …/void/{id}: the entry is reversed; the document stays listed as Voided. */
export function useVoidDocument<K extends DocumentKind>(kind: K) {
  const { client } = useApiContext();
  const changed = useDocumentsChanged(kind);
  return useMutation<DocumentAnswer<K>, ApiError, string>({ mutationFn: (id) => documentsApi.void(client, kind, id), onSuccess: (answer) => changed(answer) });
}

/** DELETE …/{id}: the entry is reversed; the document is no longer listed. */
export function useDeleteDocument<K extends DocumentKind>(kind: K) {
  const { client } = useApiContext();
  const changed = useDocumentsChanged(kind);
  return useMutation<DocumentAnswer<K>, ApiError, string>({
    mutationFn: (id) => documentsApi.remove(client, kind, id),
    onSuccess: (answer) => changed(answer, true),
  });
}

/** POST …/recur/{id} and POST /accounting/stop-recurring/{id}. */
export function useRecurDocument(kind: DocumentKind) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: documentsQueryKeys.kind(kind) });
  const recur = useMutation<{ message: string }, ApiError, { id: string; body: RecurrenceBody }>({
    mutationFn: ({ id, body }) => documentsApi.recur(client, kind, id, body),
    onSuccess: refresh,
  });
  const stop = useMutation<{ message: string }, ApiError, string>({ mutationFn: (id) => documentsApi.stopRecurring(client, kind, id), onSuccess: refresh });
  return { recur, stop };
}

/** GET /bills/csv or /invoices/csv with the list's filters. */
export function useDocumentsCsv(kind: 'bill' | 'invoice') {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, DocumentListFilters>({ mutationFn: (f) => documentsApi.csv(client, kind, f) });
}

/** GET /invoice/{id}/pdf. */
export function useInvoicePdf() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, string>({ mutationFn: (id) => documentsApi.invoicePdf(client, id) });
}

/** POST /accounting/manual-entry/check. */
export function useCheckManualEntry() {
  const { client } = useApiContext();
  return useMutation<ManualEntryCheck, ApiError, ManualEntryBody>({ mutationFn: (body) => documentsApi.checkManualEntry(client, body) });
}

/** Bank transactions that can pay the bill (money out) or invoice (money in): not linked elsewhere. */
export function usePaymentCandidates(kind: 'bill' | 'invoice', documentId: string | null, enabled = true) {
  const { client } = useApiContext();
  return useQuery<Transaction[], ApiError>({
    queryKey: documentsQueryKeys.candidates(kind, documentId),
    queryFn: ({ signal }) => documentsApi.paymentCandidates(client, kind, documentId, signal),
    enabled,
  });
}
