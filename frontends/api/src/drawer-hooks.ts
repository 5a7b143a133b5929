import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Download } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { transactionsQuery, type TransactionFilters, type TransactionTab } from './ledger';
import { ledgerQueryKeys } from './ledger-hooks';
import type { TransferFilter } from './books';

/** The transaction drawer (issue #13): receipts, comments with tagged users, exports of the lists. */

/** Spec §3: allowed receipt file types. The server checks the content too. */
export const RECEIPT_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';
export const RECEIPT_MAX_MB = 10;

export interface UserRef {
  id: string;
  name: string;
}
/** A member of the workspace as GET /transactions/taggable-users answers (former: left; named on earlier work only). */
export interface TaggableUser extends UserRef {
  email: string;
  former: boolean;
}
export interface Receipt {
  id: string;
  transactionId: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  uploadType: string;
  /** Path on the gateway (needs the bearer token: fetch it with `download`). */
  url: string;
  dateTime: string;
  uploadedBy: UserRef;
}
export interface ReceiptUploadResponse {
  message: string;
  results: { uploadedFiles: Receipt[]; failedFiles: { fileName: string; reason: string }[] };
}
export interface TransactionComment {
  id: string;
  transactionId: string;
  comment: string;
  user: UserRef;
  taggedUsers: UserRef[];
  createdAt: string;
}
export interface PostCommentBody {
  transactionId: string;
  comment: string;
  taggedUsers: string[];
}

export const drawerQueryKeys = {
  receipts: (id: string) => ['transactions', 'receipts', id] as const,
  comments: (id: string) => ['transactions', 'comments', id] as const,
  taggableUsers: ['taggable-users'] as const,
};

/** GET /transactions/receipts for one transaction, oldest first. */
export function useTransactionReceipts(id: string | null) {
  const { client } = useApiContext();
  return useQuery<Receipt[], ApiError>({
    queryKey: drawerQueryKeys.receipts(id ?? ''),
    queryFn: async ({ signal }) => (await client.request<{ data: Receipt[] }>('GET', '/transactions/receipts', { query: { transactionId: id }, signal })).data,
    enabled: id !== null,
  });
}

/** POST /transactions/receipt (multipart: transactionId, files). */
export function useUploadReceipts() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<ReceiptUploadResponse, ApiError, { transactionId: string; files: readonly File[] }>({
    mutationFn: ({ transactionId, files }) => {
      const form = new FormData();
      form.append('transactionId', transactionId);
      for (const f of files) form.append('files', f, f.name);
      return client.request('POST', '/transactions/receipt', { body: form });
    },
    onSuccess: (_answer, { transactionId }) => {
      void queryClient.invalidateQueries({ queryKey: drawerQueryKeys.receipts(transactionId) });
      void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.auditLogs(transactionId) });
    },
  });
}

/** A receipt's file (inline), to open or save. */
export function useReceiptFile() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, Receipt>({ mutationFn: (r) => client.download(r.url) });
}

/** GET /transactions/comments for one transaction, oldest first. */
export function useTransactionComments(id: string | null) {
  const { client } = useApiContext();
  return useQuery<TransactionComment[], ApiError>({
    queryKey: drawerQueryKeys.comments(id ?? ''),
    queryFn: async ({ signal }) =>
      (await client.request<{ data: TransactionComment[] }>('GET', '/transactions/comments', { query: { transactionId: id }, signal })).data,
    enabled: id !== null,
  });
}

/**
 * GET /transactions/taggable-users?includeFormer=true: the workspace's members (name, email), those who left
 * flagged `former` — a comment tags current members only; the history names everyone who acted.
 */
export function useTaggableUsers(enabled = true) {
  const { client } = useApiContext();
  return useQuery<TaggableUser[], ApiError>({
    queryKey: drawerQueryKeys.taggableUsers,
    queryFn: async ({ signal }) =>
      (await client.request<{ data: TaggableUser[] }>('GET', '/transactions/taggable-users', { query: { includeFormer: 'true' }, signal })).data,
    enabled,
    staleTime: 60_000,
  });
}

/** POST /transactions/comment. */
export function usePostComment() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<{ message: string; comment: TransactionComment }, ApiError, PostCommentBody>({
    mutationFn: (body) => client.request('POST', '/transactions/comment', { body }),
    onSuccess: (_answer, { transactionId }) => {
      void queryClient.invalidateQueries({ queryKey: drawerQueryKeys.comments(transactionId) });
      void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.auditLogs(transactionId) });
    },
  });
}

/** GET /transactions/csv with the list's filters (every page; no paging parameters). */
export function useTransactionsCsv() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, { tab: TransactionTab; filters: TransactionFilters; transfer?: TransferFilter }>({
    mutationFn: ({ tab, filters, transfer = '' }) => {
      const { page: _page, take: _take, ...query } = transactionsQuery(tab, filters, 1);
      // The transfer filter too (issue #12: transfers to review, paired ones), as the list asks it.
      return client.download('/transactions/csv', { ...query, transferStatus: transfer === '' ? undefined : transfer });
    },
  });
}

/** GET /general-ledger/csv with the general ledger's period (and account, when one is open). */
export function useGeneralLedgerCsv() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, { startDate: string; endDate: string; ledgerAccountId?: string | null }>({
    mutationFn: ({ startDate, endDate, ledgerAccountId }) =>
      client.download('/general-ledger/csv', { startDate, endDate, ledgerAccountId: ledgerAccountId ?? undefined }),
  });
}

/** Hands a downloaded file to the browser as a save. */
export function saveDownload(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Opens a downloaded file in a new tab (a receipt image or PDF), or saves it when the browser blocks the tab. */
export function openDownload(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const opened = window.open(url, '_blank');
  if (opened) opened.opener = null;
  else saveDownload(blob, name);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
