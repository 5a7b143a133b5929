// The line-item grid every document editor shares (vendor credits, credit memos, bills, invoices, manual journals):
// one row per line from 48em (a header row above, each field's own label kept for assistive technology), a card
// per line below it (labels shown); "Add line" and a remove button per line; and the totals list under it.
import { Button, CloseIcon, cx, formatMoney } from '@ledgerline/ui';
import type { CSSProperties, ReactNode } from 'react';

export interface LineColumn {
  header: string;
  /** A CSS grid track, e.g. 'minmax(0,2fr)' or '7rem'. */
  track: string;
  /** Right-aligned header (amounts). */
  numeric?: boolean;
  /** Below 48em, where each line is a card: the whole width (default), half or a third of it. */
  phone?: 'full' | 'half' | 'third';
}

const PHONE_SPAN = { full: 'col-span-6', half: 'col-span-3', third: 'col-span-2' } as const;

export interface LineItemsEditorProps<L extends { key: string }> {
  lines: readonly L[];
  columns: readonly LineColumn[];
  /** The line's fields, one per column, in order. Label each `Line {n} <what>`. */
  renderLine: (line: L, index: number) => ReactNode[];
  onAdd: () => void;
  onRemove: (key: string) => void;
  /** A problem with the lines as a whole (none, unbalanced). */
  error?: string | undefined;
  /** The fewest lines the document keeps (their remove buttons are hidden). */
  minLines?: number;
  legend?: string;
}

export function LineItemsEditor<L extends { key: string }>({
  lines,
  columns,
  renderLine,
  onAdd,
  onRemove,
  error,
  minLines = 1,
  legend = 'Line items',
}: LineItemsEditorProps<L>) {
  const template = `${columns.map((c) => c.track).join(' ')} 2.25rem`;
  const canRemove = lines.length > minLines;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">{legend}</legend>
      <div
        aria-hidden="true"
        className="hidden gap-2 px-2 text-xs font-semibold tracking-wide text-slate-500 uppercase md:grid dark:text-slate-400"
        style={{ gridTemplateColumns: template }}
      >
        {columns.map((c) => (
          <span key={c.header} className={cx('truncate', c.numeric && 'text-right')}>
            {c.header}
          </span>
        ))}
        <span />
      </div>
      {lines.map((line, i) => (
        <div
          key={line.key}
          role="group"
          aria-label={`Line ${i + 1}`}
          // One row from 48em: the fields' labels are read, not shown (the header row shows them once).
          className="relative grid grid-cols-6 items-start gap-2 rounded-lg border border-slate-200 p-2 md:[grid-template-columns:var(--line-cols)] md:border-0 md:p-0 md:[&_label]:sr-only dark:border-slate-800"
          style={{ '--line-cols': template } as CSSProperties}
        >
          {renderLine(line, i).map((cell, c) => (
            <div key={columns[c]?.header ?? c} className={cx('min-w-0 md:col-span-1', PHONE_SPAN[columns[c]?.phone ?? 'full'])}>
              {cell}
            </div>
          ))}
          {/* On a phone the remove button sits in the card's top right corner, beside the first label. */}
          <div className="flex justify-end max-md:absolute max-md:top-1 max-md:right-1 md:pt-1">
            {canRemove && (
              <button
                type="button"
                aria-label={`Remove line ${i + 1}`}
                title={`Remove line ${i + 1}`}
                onClick={() => onRemove(line.key)}
                className="rounded p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:bg-slate-800"
              >
                <CloseIcon className="size-4" />
              </button>
            )}
          </div>
        </div>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <div>
        <Button size="sm" variant="secondary" onClick={onAdd}>
          Add line
        </Button>
      </div>
    </fieldset>
  );
}

/** A document's totals (label, amount, bold), right-aligned under its lines. */
export function TotalsList({ rows, label = 'Totals' }: { rows: readonly (readonly [string, number | null, boolean?])[]; label?: string }) {
  return (
    <dl aria-label={label} className="ml-auto grid w-full max-w-xs gap-1 text-sm">
      {rows.map(([name, value, strong]) => (
        <div key={name} className="flex justify-between gap-4">
          <dt className="text-slate-500 dark:text-slate-400">{name}</dt>
          <dd className={strong ? 'font-semibold tabular-nums' : 'tabular-nums'}>{value === null ? '—' : formatMoney(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
