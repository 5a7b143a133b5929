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
import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react';
import { Button, ChevronDownIcon, CloseIcon, Spinner, cx, formatRelativeTime, inputClass, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useEditAccess } from './access';
import { memberLabel, tagCandidates, type Member } from './tag-search';

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
          <TagPicker members={users.data ?? []} value={tags} onChange={setTags} disabled={!access.canEdit || !users.data} />
          <Button type="submit" disabled={!access.canEdit} title={access.reason ?? undefined} loading={post.isPending}>
            Post comment
          </Button>
        </div>
      </form>
    </DrawerSection>
  );
}

/**
 * Whom a comment tags (decision 0036): every current member of the workspace, searched by name or email as one
 * types (case-insensitive, anywhere in the text); the chosen ones show as chips above the search, each removable.
 * The list is at least as wide as the search field and stays on screen (portaled, flipped, shifted).
 */
function TagPicker({
  members,
  value,
  onChange,
  disabled,
}: {
  members: readonly Member[];
  value: string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
}) {
  const [query, setQuery] = useState('');
  const byId = new Map(members.map((m) => [m.id, m]));
  const candidates = tagCandidates(members, query, value);
  return (
    <Field className="min-w-0 flex-1 basis-56" disabled={disabled}>
      <Label className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">Tag users</Label>
      {value.length > 0 && (
        <ul aria-label="Users to tag" className="mb-1.5 flex flex-wrap gap-1">
          {value.map((id) => {
            const label = byId.has(id) ? memberLabel(byId.get(id) as Member) : id;
            return (
              <li
                key={id}
                className="flex items-center gap-0.5 rounded bg-brand-50 py-0.5 pr-0.5 pl-1.5 text-xs text-brand-800 dark:bg-brand-950 dark:text-brand-200"
              >
                @{label}
                <button
                  type="button"
                  aria-label={`Remove ${label}`}
                  disabled={disabled}
                  onClick={() => onChange(value.filter((x) => x !== id))}
                  className="rounded p-0.5 hover:bg-brand-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:hover:bg-brand-900"
                >
                  <CloseIcon className="size-3" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Combobox
        multiple
        immediate
        value={value}
        onChange={(ids: string[]) => {
          onChange(ids);
          setQuery('');
        }}
        onClose={() => setQuery('')}
        disabled={disabled}
      >
        <div className="relative">
          <ComboboxInput
            name="tagSearch"
            autoComplete="off"
            placeholder="Search by name or email"
            className={cx(inputClass(false), 'pr-8')}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
          />
          <ComboboxButton aria-label="Show members" className="absolute inset-y-0 right-0 flex items-center px-2 text-slate-400">
            <ChevronDownIcon className="size-4" />
          </ComboboxButton>
        </div>
        <ComboboxOptions
          anchor={{ to: 'bottom start', gap: 4, padding: 8 }}
          className={cx(
            'z-50 w-max max-w-[min(28rem,calc(100vw-1rem))]! min-w-(--input-width) [--anchor-max-height:16rem] overflow-auto rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg empty:invisible focus:outline-none',
            'dark:border-slate-700 dark:bg-slate-900',
          )}
        >
          {candidates.length === 0 ? (
            <div className="px-2.5 py-2 text-slate-500 dark:text-slate-400">{query.trim() ? 'No member matches' : 'Everyone is tagged'}</div>
          ) : (
            candidates.map((m) => (
              <ComboboxOption
                key={m.id}
                value={m.id}
                className="cursor-pointer rounded-md px-2.5 py-1.5 text-slate-800 select-none data-focus:bg-brand-50 data-focus:text-brand-900 dark:text-slate-100 dark:data-focus:bg-brand-950 dark:data-focus:text-brand-100"
              >
                <span className="block truncate font-medium">{memberLabel(m)}</span>
                {m.name && m.email && <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{m.email}</span>}
              </ComboboxOption>
            ))
          )}
        </ComboboxOptions>
      </Combobox>
    </Field>
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
