import { useDrafts, type DraftEntity } from '@ledgerline/api';
import { Button, useSearchWriter } from '@ledgerline/ui';
import { DocumentsTab } from '../documents/DocumentsTab';
import { BulkDraftReview } from './BulkDraftReview';
import { UploadDocumentsButton } from './BulkUpload';
import { bulkDraftSearch, isBulkDraft } from './state';

/**
 * The bills and invoices tabs: `mode=bulk-draft` reviews the drafts (spec §2), any other mode is the documents' own
 * tab with "Upload bills" / "Upload invoices" beside "New", and a line saying how many drafts wait for review when some do.
 */
export function DocumentsOrDrafts({ kind }: { kind: DraftEntity }) {
  const [params, writeSearch] = useSearchWriter();
  if (isBulkDraft(params)) return <BulkDraftReview entity={kind} />;
  return (
    <>
      <DraftsWaiting entity={kind} open={() => writeSearch(() => bulkDraftSearch(kind))} />
      <DocumentsTab kind={kind} actions={<UploadDocumentsButton entity={kind} />} />
    </>
  );
}

function DraftsWaiting({ entity, open }: { entity: DraftEntity; open: () => void }) {
  const drafts = useDrafts(entity);
  const n = drafts.data?.meta.itemCount ?? 0;
  if (n === 0) return null;
  return (
    <div
      role="status"
      className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
    >
      <span>
        {n} {entity} draft{n === 1 ? '' : 's'} waiting for review
      </span>
      <Button size="sm" variant="secondary" className="ml-auto" onClick={open}>
        Review drafts
      </Button>
    </div>
  );
}
