import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Download } from './client';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import type { TransactionsQuery } from './ledger';
import { ledgerQueryKeys } from './ledger-hooks';
import type { OperationBody, OperationResult } from './types';

/** The transaction drawer (issue #13): receipts, comments with tagged users, exports of the lists. */

/** Spec §3: allowed receipt file types. The server checks the content too. */
export const RECEIPT_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';
export const RECEIPT_MAX_MB = 10;

/** A member of the workspace as GET /transactions/taggable-users answers (former: left; named on earlier work only). */
export type TaggableUser = OperationResult<'listTaggableUsers'>['data'][number];
/** A workspace member as a comment names them. */
export type UserRef = Pick<TaggableUser, 'id' | 'name'>;
/** A receipt of a transaction; its `url` is a path on the gateway (fetch it with `downloadLink`: it needs the token). */
export type Receipt = OperationResult<'listTransactionReceipts'>['data'][number];
export type ReceiptUploadResponse = OperationResult<'uploadReceipts'>;
export type TransactionComment = OperationResult<'listTransactionComments'>['data'][number];
/** What the drawer sends: all three fields (the gateway checks them; its body schema does not mark them required). */
export type PostCommentBody = Required<OperationBody<'postTransactionComment'>>;
export type PostCommentResponse = OperationResult<'postTransactionComment'>;

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
    queryFn: async ({ signal }) => (await client.get('/transactions/receipts', { params: { query: { transactionId: id ?? '' } }, signal })).data,
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
      return client.upload('/transactions/receipt', { form });
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
  return useMutation<Download, ApiError, Receipt>({ mutationFn: (r) => client.downloadLink(r.url) });
}

/** GET /transactions/comments for one transaction, oldest first. */
export function useTransactionComments(id: string | null) {
  const { client } = useApiContext();
  return useQuery<TransactionComment[], ApiError>({
    queryKey: drawerQueryKeys.comments(id ?? ''),
    queryFn: async ({ signal }) => (await client.get('/transactions/comments', { params: { query: { transactionId: id ?? '' } }, signal })).data,
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
    queryFn: async ({ signal }) => (await client.get('/transactions/taggable-users', { params: { query: { includeFormer: 'true' } }, signal })).data,
    enabled,
    staleTime: 60_000,
  });
}

/** POST /transactions/comment. */
export function usePostComment() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<PostCommentResponse, ApiError, PostCommentBody>({
    mutationFn: (body) => client.post('/transactions/comment', { body }),
    onSuccess: (_answer, { transactionId }) => {
      void queryClient.invalidateQueries({ queryKey: drawerQueryKeys.comments(transactionId) });
      void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.auditLogs(transactionId) });
    },
  });
}

/** GET /transactions/csv with the list's query (every page; no paging parameters), transfer status included (issue #12). */
export function useTransactionsCsv() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, TransactionsQuery>({
    mutationFn: (query) => client.download('/transactions/csv', { params: { query } }),
  });
}

/** GET /general-ledger/csv with the general ledger's period (and account, when one is open). */
export function useGeneralLedgerCsv() {
  const { client } = useApiContext();
  return useMutation<Download, ApiError, { startDate: string; endDate: string; ledgerAccountId?: string | null }>({
    mutationFn: ({ startDate, endDate, ledgerAccountId }) =>
      client.download('/general-ledger/csv', { params: { query: { startDate, endDate, ledgerAccountId: ledgerAccountId ?? undefined } } }),
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
