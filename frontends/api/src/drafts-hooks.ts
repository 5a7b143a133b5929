// react-query hooks for drafts (drafts.ts has the calls and types).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiContext } from './context';
import { documentsQueryKeys } from './documents-hooks';
import { draftsApi, type DraftBatch, type DraftEntity, type DraftList, type DraftMetaData } from './drafts';
import type { ApiError } from './errors';
import { afterBooksChanged } from './reports-hooks';

export const draftsQueryKeys = {
  all: ['drafts'] as const,
  list: (entity: DraftEntity) => ['drafts', entity] as const,
};

/** GET /drafts of one entity type (the first 100, oldest first). */
export function useDrafts(entity: DraftEntity) {
  const { client } = useApiContext();
  return useQuery<DraftList, ApiError>({
    queryKey: draftsQueryKeys.list(entity),
    queryFn: ({ signal }) => draftsApi.list(client, { entityType: entity }, 1, signal),
  });
}

/**
 * The drafts' changes. Spec §4: after a draft action the list is refreshed in steps (100, 200 and 400 ms), so a row
 * another request is still writing shows up; a conversion also refreshes the bills / invoices and the reports.
 */
export function useDraftActions(entity: DraftEntity) {
  const { client } = useApiContext();
  const queryClient = useQueryClient();
  const refresh = () => {
    const again = () => void queryClient.invalidateQueries({ queryKey: draftsQueryKeys.list(entity) });
    again();
    for (const ms of [100, 300, 700]) setTimeout(again, ms);
  };
  const save = useMutation<unknown, ApiError, { id: string; metaData: DraftMetaData }>({ mutationFn: (b) => draftsApi.update(client, b), onSuccess: refresh });
  const remove = useMutation<DraftBatch, ApiError, string[]>({ mutationFn: (ids) => draftsApi.remove(client, ids), onSuccess: refresh });
  const convert = useMutation<DraftBatch, ApiError, string[]>({
    mutationFn: (ids) => draftsApi.convert(client, entity, ids),
    onSuccess: (batch) => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: documentsQueryKeys.kind(entity) });
      if (batch.createdCount > 0) void afterBooksChanged(client, queryClient);
    },
    onError: refresh,
  });
  return { save, remove, convert };
}
