import {
  RECEIPT_ACCEPT,
  RECEIPT_MAX_MB,
  describeError,
  openDownload,
  saveDownload,
  usePostComment,
  useReceiptFile,
  useTaggableUsers,
  useTransactionComments,
  useTransactionReceipts,
  useUploadReceipts,
  type Receipt,
} from '@ledgerline/api';
import { Button, MultiSelect, Spinner, formatRelativeTime, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useEditAccess } from './access';

/** Spec §5: a comment needs text; ours: at most 2000 characters (the server says the same). */
export const COMMENT_MAX_LENGTH = 2000;

const sizeLabel = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** The transaction's receipts (open, download) and an upload of jpg, jpeg, png or pdf files (spec §3). */
export function ReceiptsSection({ transactionId }: { transactionId: string }) {
  const access = useEditAccess();
  const receipts = useTransactionReceipts(transactionId);
  const upload = useUploadReceipts();
  const file = useReceiptFile();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  const onFiles = (files: FileList | null) => {
    const chosen = files ? [...files] : [];
    if (chosen.length === 0) return;
    upload.mutate(
      { transactionId, files: chosen },
      {
        onSuccess: (answer) => {
          notice.success(answer.message);
          for (const failed of answer.results.failedFiles) notice.error(`${failed.fileName}: ${failed.reason}`);
        },
        onError: showError,
        onSettled: () => {
          if (input.current) input.current.value = '';
        },
      },
    );
  };
  const fetchFile = (r: Receipt, how: 'open' | 'download') =>
    file.mutate(r, {
      onSuccess: (f) => (how === 'open' ? openDownload(f.blob, f.fileName ?? r.fileName) : saveDownload(f.blob, f.fileName ?? r.fileName)),
      onError: showError,
    });

  return (
    <DrawerSection title="Receipts">
      {receipts.isPending ? (
        <Spinner label="Loading the receipts" />
      ) : receipts.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">{describeError(receipts.error)?.message ?? 'The receipts could not be loaded'}</p>
      ) : receipts.data.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No receipt attached.</p>
      ) : (
        <ul
          aria-label="Attached receipts"
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800"
        >
          {receipts.data.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-slate-900 dark:text-slate-100" title={r.fileName}>
                  {r.fileName}
                </span>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {sizeLabel(r.sizeBytes)} · {r.uploadedBy.name || 'Someone'} · <time dateTime={r.dateTime}>{formatRelativeTime(r.dateTime)}</time>
                </span>
              </span>
              <span className="flex shrink-0 gap-1">
                <Button size="sm" variant="secondary" aria-label={`Open ${r.fileName}`} onClick={() => fetchFile(r, 'open')}>
                  Open
                </Button>
                <Button size="sm" variant="secondary" aria-label={`Download ${r.fileName}`} onClick={() => fetchFile(r, 'download')}>
                  Download
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <input
          ref={input}
          id={inputId}
          type="file"
          name="files"
          multiple
          accept={RECEIPT_ACCEPT}
          className="sr-only"
          disabled={!access.canEdit || upload.isPending}
          onChange={(event) => onFiles(event.currentTarget.files)}
          data-testid="receipt-input"
        />
        <Button size="sm" disabled={!access.canEdit} title={access.reason ?? undefined} loading={upload.isPending} onClick={() => input.current?.click()}>
          Upload receipt
        </Button>
        <span className="text-xs text-slate-500 dark:text-slate-400">jpg, jpeg, png or pdf, up to {RECEIPT_MAX_MB} MB</span>
      </div>
    </DrawerSection>
  );
}

/** The transaction's comments (author, time, text, tagged users) and a form to post one, tagging members. */
export function CommentsSection({ transactionId }: { transactionId: string }) {
  const access = useEditAccess();
  const comments = useTransactionComments(transactionId);
  const users = useTaggableUsers();
  const post = usePostComment();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [text, setText] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();

  const submit = () => {
    const comment = text.trim();
    if (comment === '') return setError('comment is required');
    if (comment.length > COMMENT_MAX_LENGTH) return setError(`comment must be at most ${COMMENT_MAX_LENGTH} characters`);
    setError(null);
    post.mutate(
      { transactionId, comment, taggedUsers: tags },
      {
        onSuccess: (answer) => {
          notice.success(answer.message);
          setText('');
          setTags([]);
        },
        onError: showError,
      },
    );
  };

  return (
    <DrawerSection title="Comments">
      {comments.isPending ? (
        <Spinner label="Loading the comments" />
      ) : comments.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">{describeError(comments.error)?.message ?? 'The comments could not be loaded'}</p>
      ) : comments.data.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No comments yet.</p>
      ) : (
        <ol aria-label="Comments" className="space-y-3 text-sm">
          {comments.data.map((c) => (
            <li key={c.id} className="rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
              <p className="flex justify-between gap-3 text-xs text-slate-500 dark:text-slate-400">
                <span className="font-medium text-slate-700 dark:text-slate-300">{c.user.name || 'Someone'}</span>
                <time dateTime={c.createdAt}>{formatRelativeTime(c.createdAt)}</time>
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words text-slate-900 dark:text-slate-100">{c.comment}</p>
              {c.taggedUsers.length > 0 && (
                <p className="mt-1 flex flex-wrap gap-1" aria-label="Tagged users">
                  {c.taggedUsers.map((u) => (
                    <span key={u.id} className="rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-800 dark:bg-brand-950 dark:text-brand-200">
                      @{u.name || u.id.slice(-6).toUpperCase()}
                    </span>
                  ))}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <form
        className="mt-3 space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Add a comment
        </label>
        <textarea
          id={fieldId}
          name="comment"
          rows={3}
          maxLength={COMMENT_MAX_LENGTH}
          value={text}
          disabled={!access.canEdit}
          onChange={(event) => setText(event.currentTarget.value)}
          aria-invalid={error !== null}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        />
        {error && (
          <p id={`${fieldId}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="flex flex-wrap items-end gap-2">
          <MultiSelect
            label="Tag users"
            name="taggedUsers"
            className="min-w-0 flex-1"
            options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name || u.id }))}
            value={tags}
            onChange={setTags}
            placeholder="Nobody"
            disabled={!access.canEdit || !users.data}
          />
          <Button type="submit" disabled={!access.canEdit} title={access.reason ?? undefined} loading={post.isPending}>
            Post comment
          </Button>
        </div>
      </form>
    </DrawerSection>
  );
}

function DrawerSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{title}</h3>
      {children}
    </section>
  );
}
