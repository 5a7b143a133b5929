import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { cx } from '../cx';
import { CheckIcon, WarningIcon } from '../icons';
import { filesProgress, formatFileSize, listOfTypes, precheckFile } from '../upload-rules';
import { Button } from './Button';

export interface DropZoneRefusal {
  fileName: string;
  reason: string;
}

export interface DropZoneProps {
  /** The zone's accessible name and heading, e.g. 'Upload receipts'. */
  label: string;
  /** A line under the heading; by default the types and the size limit. */
  hint?: ReactNode;
  /** Lower-case extensions without the dot. */
  extensions: readonly string[];
  maxBytes: number;
  /** Files in one batch (the rest are refused in the browser with a message). */
  maxFiles?: number;
  disabled?: boolean;
  /** Shown when disabled (a Viewer, demo mode). */
  disabledReason?: string | null;
  /**
   * Sends the accepted files as one batch and reports the request's bytes (XMLHttpRequest upload events); answers the
   * files the server refused, by name. A throw fails the whole batch with `describeFailure`'s message.
   */
  upload: (files: File[], onProgress: (sent: number, total: number) => void) => Promise<{ failedFiles: readonly DropZoneRefusal[] }>;
  describeFailure?: (error: unknown) => string | null;
  /** After a batch: how many files were kept and which were refused (in the browser or by the server). */
  onSettled?: (outcome: { uploaded: number; refused: readonly DropZoneRefusal[] }) => void;
  className?: string;
}

type RowState = 'uploading' | 'done' | 'refused';
interface Row {
  key: string;
  name: string;
  size: number;
  state: RowState;
  progress: number;
  message: string;
}

let nextKey = 0;

/**
 * Drag-and-drop and "Browse files" for several files at once (decision 0029): each file a row with its name
 * (ellipsised, the full name in its title), size and a progress bar from the upload's real progress, then Uploaded or
 * the reason it was refused. Types and size are checked in the browser first; the server stays the final word.
 */
export function DropZone({
  label,
  hint,
  extensions,
  maxBytes,
  maxFiles = 20,
  disabled = false,
  disabledReason,
  upload,
  describeFailure,
  onSettled,
  className,
}: DropZoneProps) {
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const hintId = useId();
  const accept = extensions.map((e) => `.${e}`).join(',');
  const busy = rows.some((r) => r.state === 'uploading');

  const patch = (keys: ReadonlySet<string>, f: (r: Row) => Row) => setRows((all) => all.map((r) => (keys.has(r.key) ? f(r) : r)));

  async function take(list: readonly File[]) {
    if (disabled || list.length === 0) return;
    const fresh: Row[] = [];
    const sending: File[] = [];
    const refused: DropZoneRefusal[] = [];
    for (const file of list) {
      const key = `upload-${++nextKey}`;
      const tooMany = sending.length >= maxFiles ? `${file.name} was not sent: at most ${maxFiles} files at a time` : null;
      const problem = tooMany ?? precheckFile(file, { extensions, maxBytes });
      if (problem) refused.push({ fileName: file.name, reason: problem });
      else sending.push(file);
      fresh.push({ key, name: file.name, size: file.size, state: problem ? 'refused' : 'uploading', progress: 0, message: problem ?? '' });
    }
    setRows((all) => [...fresh, ...all]);
    const keys = fresh.filter((r) => r.state === 'uploading').map((r) => r.key);
    const keySet = new Set(keys);
    if (sending.length === 0) {
      onSettled?.({ uploaded: 0, refused });
      return;
    }
    const sizes = sending.map((f) => f.size);
    try {
      const answer = await upload(sending, (sent, total) => {
        const parts = filesProgress(sizes, sent, total);
        setRows((all) =>
          all.map((r) => {
            const i = keys.indexOf(r.key);
            return i < 0 || r.state !== 'uploading' ? r : { ...r, progress: parts[i] ?? r.progress };
          }),
        );
      });
      const reasons = new Map(answer.failedFiles.map((f) => [f.fileName, f.reason]));
      patch(keySet, (r) =>
        reasons.has(r.name) ? { ...r, state: 'refused', message: reasons.get(r.name) ?? '' } : { ...r, state: 'done', progress: 1, message: 'Uploaded' },
      );
      onSettled?.({ uploaded: sending.filter((f) => !reasons.has(f.name)).length, refused: [...refused, ...answer.failedFiles] });
    } catch (error) {
      const message = describeFailure?.(error) ?? 'The upload failed';
      patch(keySet, (r) => ({ ...r, state: 'refused', message }));
      onSettled?.({ uploaded: 0, refused: [...refused, ...sending.map((f) => ({ fileName: f.name, reason: message }))] });
    }
  }

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    void take([...e.dataTransfer.files]);
  };
  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
    if (!disabled) setOver(true);
  };

  return (
    <section aria-labelledby={headingId} className={cx('min-w-0', className)}>
      <div
        data-drop-zone=""
        onDrop={onDrop}
        onDragOver={onDragOver}
        onDragLeave={() => setOver(false)}
        className={cx(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors',
          over ? 'border-brand-500 bg-brand-50 dark:bg-brand-950' : 'border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-900',
          disabled && 'opacity-80',
        )}
      >
        <h3 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
          {label}
        </h3>
        <p id={hintId} className="text-sm text-slate-600 dark:text-slate-400">
          {hint ?? `Drag files here, or browse. ${listOfTypes(extensions.map((x) => x.toUpperCase()))}, up to ${formatFileSize(maxBytes)} each.`}
        </p>
        <Button
          size="sm"
          variant="secondary"
          disabled={disabled}
          aria-describedby={hintId}
          title={disabled ? (disabledReason ?? undefined) : undefined}
          onClick={() => input.current?.click()}
        >
          Browse files
        </Button>
        {disabled && disabledReason && <p className="text-xs text-amber-700 dark:text-amber-400">{disabledReason}</p>}
        <input
          ref={input}
          type="file"
          multiple
          accept={accept}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="drop-zone-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void take(files);
          }}
        />
      </div>
      {rows.length > 0 && (
        <div className="mt-3">
          <div className="mb-1 flex items-center justify-between gap-2">
            <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">Files</span>
            {!busy && (
              <Button size="sm" variant="ghost" onClick={() => setRows([])}>
                Clear list
              </Button>
            )}
          </div>
          <ul
            aria-label={`${label}: files`}
            className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
          >
            {rows.map((r) => (
              <FileRow key={r.key} row={r} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function FileRow({ row }: { row: Row }) {
  const percent = Math.round(row.progress * 100);
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-3 py-2 text-sm" aria-label={row.name}>
      <span className="truncate font-medium text-slate-900 dark:text-slate-100" title={row.name}>
        {row.name}
      </span>
      <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatFileSize(row.size)}</span>
      {row.state === 'uploading' ? (
        <>
          <div
            role="progressbar"
            aria-label={`Uploading ${row.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
          >
            <div className="h-full rounded-full bg-brand-600 transition-[width] dark:bg-brand-400" style={{ width: `${percent}%` }} />
          </div>
          <span className="text-xs text-slate-600 tabular-nums dark:text-slate-300">{percent}%</span>
        </>
      ) : row.state === 'done' ? (
        <span className="col-span-2 flex items-center gap-1 text-xs text-emerald-700 dark:text-emerald-300">
          <CheckIcon className="size-4 shrink-0" /> {row.message}
        </span>
      ) : (
        <span role="alert" className="col-span-2 flex items-start gap-1 text-xs break-words text-red-700 dark:text-red-300">
          <WarningIcon className="mt-px size-4 shrink-0" /> <span className="min-w-0">{row.message}</span>
        </span>
      )}
    </li>
  );
}
