import { UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES, describeError, useBulkUploadJobIds, useUploadFiles, type DraftEntity } from '@ledgerline/api';
import { Button, DropZone, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { PartyDialog } from '../parties/common';
import { useEditAccess } from '../transactions/access';
import { importBatches } from './import-batches';

const WHAT: Readonly<Record<DraftEntity, { title: string; files: string }>> = {
  bill: { title: 'Upload bills', files: 'Bill files' },
  invoice: { title: 'Upload invoices', files: 'Invoice files' },
};

/**
 * "Upload bills" / "Upload invoices" (issue #19; decision 0029): the drop zone in a dialog; each batch goes to POST
 * /workspace-uploads/bill or /invoice (spec §8 'Bill uploaded successfully.' / 'Invoice uploaded successfully.') and
 * its bulk-upload job is watched (ImportWatcher) until its drafts are ready to review.
 */
export function UploadDocumentsButton({ entity }: { entity: DraftEntity }) {
  const w = WHAT[entity];
  const access = useEditAccess();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="secondary" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => setOpen(true)}>
        {w.title}
      </Button>
      {open && <UploadDocumentsDialog entity={entity} onClose={() => setOpen(false)} />}
    </>
  );
}

function UploadDocumentsDialog({ entity, onClose }: { entity: DraftEntity; onClose: () => void }) {
  const w = WHAT[entity];
  const uploadFiles = useUploadFiles();
  const jobIds = useBulkUploadJobIds();
  const notice = useNotice();
  const access = useEditAccess();
  return (
    <PartyDialog
      open
      onClose={onClose}
      title={w.title}
      description={`Each file is read into a draft ${entity} — vendor, dates, number and lines — for you to review and save.`}
      actions={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <DropZone
        label={w.files}
        extensions={UPLOAD_EXTENSIONS}
        maxBytes={UPLOAD_MAX_BYTES}
        maxFiles={UPLOAD_MAX_FILES}
        disabled={!access.canEdit}
        disabledReason={access.reason}
        describeFailure={(e) => describeError(e)?.message ?? null}
        upload={async (files, onProgress) => {
          // The jobs listed before the batch goes up tell its job apart afterwards (GET /jobs names no upload).
          const before = await jobIds();
          const answer = await uploadFiles.mutateAsync({ kind: entity, files, onProgress, idempotencyKey: crypto.randomUUID() });
          if (answer.results.uploadedFiles.length > 0) {
            notice.success(answer.message);
            importBatches.add({ key: crypto.randomUUID(), kind: entity, before });
          }
          return answer.results;
        }}
      />
    </PartyDialog>
  );
}
