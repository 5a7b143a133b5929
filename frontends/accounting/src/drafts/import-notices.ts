import { draftsQueryKeys, type DraftEntity } from '@ledgerline/api';
import { useNotice } from '@ledgerline/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { bulkDraftSearch, importNotice } from './state';

/**
 * The import notices of an upload of bills or invoices (platform-core: 'Importing' / 'Please wait while we finish
 * uploading', then 'Import Complete!' / 'Click here to review and save them' with View): the upload screen calls
 * `importing()` when the files go up and `complete(entity)` once their drafts are made; View opens the review
 * (`/accounting?tab=bills&mode=bulk-draft`) with the drafts asked for again.
 */
export function useImportNotices() {
  const notice = useNotice();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const importing = useCallback(() => notice.notify(importNotice('importing', () => undefined)), [notice]);
  const complete = useCallback(
    (entity: DraftEntity) => {
      void queryClient.invalidateQueries({ queryKey: draftsQueryKeys.list(entity) });
      return notice.notify(importNotice('complete', () => void navigate(`/accounting?${bulkDraftSearch(entity).toString()}`)));
    },
    [navigate, notice, queryClient],
  );
  return useMemo(() => ({ importing, complete }), [importing, complete]);
}
