import { TREE_INDENT_PX, type ReportColumn, type ReportHeader, type ReportRow } from '@ledgerline/api';
import { type DrillReport } from './screen';
import { drillHref, drillLabel, rowEmphasis, serverDrill, drillDownTarget, reportTableRows } from './rows';
import { ChevronDownIcon, cx } from '@ledgerline/ui';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router';
import { formatAmount } from '../format';

export interface ReportTableProps {
  report: DrillReport;
  title: string;
  header: Pick<ReportHeader, 'startDate' | 'endDate'>;
  columns: readonly ReportColumn[];
  rows: readonly ReportRow[];
  /** The profit and loss and cash flow add the period's total; a balance sheet's last column is already its total. */
  showTotal: boolean;
  earliestDate: string;
}

/**
 * Whether the box scrolls sideways and has columns hidden to its right (a year by month at 1440 px hides the last
 * months and the Total): followed on scroll and on any change of the box's or the table's size.
 */
function useMoreToTheRight(scroller: RefObject<HTMLDivElement | null>): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const update = () => setMore(box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    update();
    box.addEventListener('scroll', update, { passive: true });
    const sizes = new ResizeObserver(update);
    sizes.observe(box);
    if (box.firstElementChild) sizes.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', update);
      sizes.disconnect();
    };
  }, [scroller]);
  return more;
}

/** A report as an indented account tree (spec §9: 24px per level) with a column per period; every cell drills down (spec §2). */
export function ReportTable({ report, title, header, columns, rows, showTotal, earliestDate }: ReportTableProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (key: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const visible = reportTableRows(rows, collapsed);
  const scroller = useRef<HTMLDivElement>(null);
  const moreToTheRight = useMoreToTheRight(scroller);
  return (
    <div className="relative -mx-6">
      <div ref={scroller} className="overflow-x-auto">
        <table className="w-full text-sm" aria-label={title}>
          <thead>
            <tr className="border-b border-slate-200 text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400">
              <th scope="col" className="sticky left-0 min-w-56 bg-white px-6 py-2 text-left dark:bg-slate-900">
                Account
              </th>
              {columns.map((c) => (
                <th key={`${c.startDate}:${c.endDate}`} scope="col" className="px-3 py-2 text-right whitespace-nowrap">
                  {c.label}
                </th>
              ))}
              {showTotal && (
                <th scope="col" className="px-6 py-2 text-right">
                  Total
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {visible.map(({ key, row, depth, hasChildren, expanded, ownPostings }) => {
              const emphasis = rowEmphasis(row);
              const strong = emphasis !== 'account' && emphasis !== 'computed';
              const cell = (column: ReportColumn | 'total', index: number | 'total', amount: number) => {
                const text = formatAmount(amount);
                // The server's link wins (issue #12: retained earnings and net income open the P&L of the matching
                // fiscal period); otherwise the spec §2 rules.
                // A balance sheet's total is its last column; a profit and loss total spans the period (the spec §2 rule).
                const drill = index === 'total' && report !== 'balancesheet' ? null : serverDrill(row, index, columns.length);
                const target = drill
                  ? { href: drillHref(drill), label: drillLabel(row, drill) }
                  : drillDownTarget({ report, row, column, header, earliestDate });
                if (target === null) return text;
                return (
                  <Link
                    to={target.href}
                    aria-label={`${target.label}: ${text}`}
                    className="rounded hover:text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:hover:text-brand-300"
                  >
                    {text}
                  </Link>
                );
              };
              return (
                <tr
                  key={key}
                  data-row-type={row.rowType}
                  data-emphasis={emphasis}
                  className={cx(
                    'border-b border-slate-100 last:border-0 dark:border-slate-800/70',
                    strong && 'font-semibold',
                    emphasis === 'section' && depth === 0 && 'bg-slate-50 dark:bg-slate-800/40',
                    emphasis === 'subtotal' && 'border-t-2 border-t-slate-300 dark:border-t-slate-600',
                    emphasis === 'grand-total' &&
                      'border-t-2 border-b-4 border-double border-t-slate-400 border-b-slate-400 font-bold dark:border-t-slate-500 dark:border-b-slate-500',
                    emphasis === 'computed' && 'italic',
                  )}
                >
                  <th
                    scope="row"
                    className={cx(
                      'sticky left-0 py-1.5 pr-3 text-left whitespace-nowrap',
                      emphasis === 'section' && depth === 0 ? 'bg-slate-50 dark:bg-slate-800' : 'bg-white dark:bg-slate-900',
                      emphasis === 'grand-total' ? 'font-bold' : strong ? 'font-semibold' : 'font-normal',
                    )}
                    style={{ paddingLeft: 24 + depth * TREE_INDENT_PX }}
                  >
                    <span className="flex items-center gap-1">
                      {hasChildren ? (
                        <button
                          type="button"
                          onClick={() => toggle(key)}
                          aria-expanded={expanded}
                          aria-label={`${expanded ? 'Collapse' : 'Expand'} ${row.name}`}
                          className="-ml-5 rounded p-0.5 text-slate-500 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:text-slate-400 dark:hover:text-white"
                        >
                          <ChevronDownIcon className={cx('size-4 transition-transform', !expanded && '-rotate-90')} />
                        </button>
                      ) : null}
                      <span>{row.name}</span>
                      {ownPostings ? (
                        <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">its own postings</span>
                      ) : (
                        row.coaId !== null && <span className="ml-1 font-mono text-xs font-normal text-slate-500 dark:text-slate-400">{row.coaId}</span>
                      )}
                    </span>
                  </th>
                  {columns.map((c, i) => (
                    <td key={`${c.startDate}:${c.endDate}`} className="px-3 py-1.5 text-right whitespace-nowrap tabular-nums">
                      {cell(c, i, row.amounts[i] ?? 0)}
                    </td>
                  ))}
                  {showTotal && <td className="px-6 py-1.5 text-right whitespace-nowrap tabular-nums">{cell('total', 'total', row.total)}</td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {/* Columns hidden to the right (the last months, the Total) show as a shade at the edge, as spreadsheets do. */}
      {moreToTheRight && (
        <div
          data-more-columns
          aria-hidden
          className="pointer-events-none absolute inset-y-0 right-0 w-10 bg-linear-to-l from-slate-900/15 to-transparent dark:from-black/50"
        />
      )}
    </div>
  );
}
