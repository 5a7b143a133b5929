// react-query hooks for uploads (uploads.ts has the calls, types and rules).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { JOB_POLL_INTERVAL_MS, isJobInProgress } from './banking';
import { useApiContext } from './context';
import type { ApiError } from './errors';
import { queryKeys } from './hooks';
import { ledgerQueryKeys } from './ledger-hooks';
import type { Job } from './types';
import {
  bulkUploadJobs,
  jobOfBatch,
  uploadsApi,
  type ReceiptStatus,
  type UploadFilesInput,
  type UploadKind,
  type UploadList,
  type UploadResult,
  type UploadChanged,
  type UploadUpdateBody,
  type WorkspaceUpload,
} from './uploads';

export const uploadsQueryKeys = {
  all: ['workspace-uploads'] as const,
  list: (kind: UploadKind, statuses: readonly ReceiptStatus[]) => ['workspace-uploads', kind, statuses.join(',')] as const,
};

const READ_WAIT_MS = 5 * 60_000;
const awaitingRead = (u: WorkspaceUpload): boolean =>
  u.uploadType === 'receipt' && u.readStatus !== 'read' && Date.now() - Date.parse(u.createdAt) < READ_WAIT_MS;

/** Receipts are listed this many at a time (the next page when the list nears its end, as the other lists). */
export const UPLOADS_PAGE_SIZE = 50;

/** GET /workspace-uploads of one type, newest first, page by page, filtered by receiptStatus when given. */
export function useUploadList(kind: UploadKind, statuses: readonly ReceiptStatus[] = []) {
  const { client } = useApiContext();
  return useInfiniteQuery<UploadList, ApiError, InfiniteData<UploadList, number>, ReturnType<typeof uploadsQueryKeys.list>, number>({
    queryKey: uploadsQueryKeys.list(kind, statuses),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      uploadsApi.list(client, { uploadType: kind, receiptStatus: statuses, page: pageParam, take: UPLOADS_PAGE_SIZE }, signal),
    getNextPageParam: (last) => (last.meta.hasNextPage ? last.meta.page + 1 : undefined),
    // Receipts are read (and matched) by the bulk-upload job after they are stored: look again while one uploaded in the
    // last few minutes is unread (one the job gave up on stays unread; it is not polled for ever).
    refetchInterval: (query) => ((query.state.data?.pages ?? []).some((p) => p.data.some(awaitingRead)) ? JOB_POLL_INTERVAL_MS : false),
  });
}

/** POST the files (one batch) with the request's progress; the lists of uploads and the jobs are asked for again. */
export function useUploadFiles() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UploadResult, ApiError, UploadFilesInput>({
    mutationFn: (input) => uploadsApi.upload(client, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: uploadsQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.jobs });
    },
  });
}

/** PATCH /workspace-uploads/{id} (merchantName, dateTime, amount): a receipt is matched again with them. */
export function useUpdateUpload() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UploadChanged, ApiError, UploadUpdateBody & { id: string }>({
    mutationFn: ({ id, ...body }) => uploadsApi.update(client, id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: uploadsQueryKeys.all }),
  });
}

/** POST /workspace-uploads/{id}/match (transactionId). */
export function useMatchUpload() {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  return useMutation<UploadChanged, ApiError, { id: string; transactionId: string }>({
    mutationFn: ({ id, transactionId }) => uploadsApi.match(client, id, transactionId),
    onSuccess: (_answer, { transactionId }) => {
      void queryClient.invalidateQueries({ queryKey: uploadsQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueryKeys.transaction(transactionId) });
    },
  });
}

/** The ids of the bulk-upload jobs GET /jobs lists now: taken before a batch goes up, to tell its job apart after. */
export function useBulkUploadJobIds() {
  const { client } = useApiContext();
  return async (): Promise<Set<string>> => new Set(bulkUploadJobs((await client.listJobs({})).jobs).map((j) => j.id));
}

/** A batch of files sent as bills, invoices or receipts: the bulk-upload job ids listed before it went up, and its type. */
export interface UploadBatch {
  key: string;
  kind: UploadKind;
  before: ReadonlySet<string>;
}

/**
 * The bulk-upload job of each batch (null while GET /jobs does not show it yet), by the batch's key; polled while any is
 * missing or in progress.
 */
export function useBatchJobs(batches: readonly UploadBatch[]) {
  const { client } = useApiContext();
  return useQuery<ReadonlyMap<string, Job | null>, ApiError>({
    queryKey: [...queryKeys.jobs, 'bulk upload', batches.map((b) => b.key).join(',')],
    queryFn: async ({ signal }) => {
      const jobs = (await client.listJobs({}, signal)).jobs;
      return new Map(batches.map((b) => [b.key, jobOfBatch(jobs, b.before, b.kind)] as const));
    },
    enabled: batches.length > 0,
    refetchInterval: (query) => {
      const found = query.state.data;
      return found === undefined || [...found.values()].some((j) => j === null || isJobInProgress(j)) ? JOB_POLL_INTERVAL_MS : false;
    },
  });
}
