import { useBatchJobs } from '@ledgerline/api';
import { useNotice } from '@ledgerline/ui';
import { useEffect, useRef } from 'react';
import { importBatches, importOutcome, useImportBatches } from './import-batches';
import { useImportNotices } from './import-notices';
import { IMPORT_NOTICE_ID } from './state';

/**
 * The import notices of the batches uploaded from the bills and invoices tabs (platform-core §4): 'Importing' / 'Please
 * wait while we finish uploading' while a batch's 'bulk upload' job of GET /jobs runs (polled), then 'Import Complete!'
 * / 'Click here to review and save them' with View (mode=bulk-draft). Rendered once by the accounting page, so it keeps
 * watching while the user moves between its tabs; when the page goes, the 'Importing' notice goes with it and comes
 * back with the page.
 */
export function ImportWatcher() {
  const batches = useImportBatches();
  const jobs = useBatchJobs(batches);
  const notices = useImportNotices();
  const notice = useNotice();
  const outcome = importOutcome(batches, jobs.data);
  const importing = outcome?.state === 'importing';
  const shown = useRef(false);

  useEffect(() => {
    if (importing && !shown.current) {
      notices.importing();
      shown.current = true;
    }
  }, [importing, notices]);
  useEffect(
    () => () => {
      if (!shown.current) return;
      notice.dismiss(IMPORT_NOTICE_ID);
      shown.current = false;
    },
    [notice],
  );
  useEffect(() => {
    if (outcome?.state !== 'done') return;
    shown.current = false;
    importBatches.remove(outcome.keys);
    for (const f of outcome.failed) notice.error(f.reason);
    notices.complete(outcome.entity);
  }, [outcome, notice, notices]);
  return null;
}
