import {
  depreciationRowState,
  describeError,
  useDeleteFixedAsset,
  useFixedAsset,
  useStopFixedAsset,
  type DepreciationRow,
  type FixedAsset,
} from '@ledgerline/api';
import { methodLabel } from './rules';
import { Button, Dialog, EmptyState, Spinner, cx, formatMoney, formatShortDate, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { useEditAccess } from '../transactions/access';
import { StatusBadge, lifeOf } from './present';

type Confirming = 'stop' | 'delete' | null;

const QUESTION: Record<'stop' | 'delete', string> = {
  stop: 'Stop depreciating this asset? Posted months stay.',
  delete: 'Delete this asset? Its depreciation is reversed.',
};

/** One fixed asset (`?fixedAsset=<id>`): its figures, the purchase it came from, its depreciation schedule; Stop and Delete after a confirmation. */
export function AssetDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const asset = useFixedAsset(id);
  const stop = useStopFixedAsset();
  const remove = useDeleteFixedAsset();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const access = useEditAccess();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const a = asset.data;
  const canStop = a !== undefined && (a.status === 'Active' || a.status === 'Pending');

  const act = () => {
    if (confirming === 'stop') {
      stop.mutate(id, {
        onSuccess: (answer) => {
          notice.success(answer.message);
          setConfirming(null);
        },
        onError: showError,
      });
    } else if (confirming === 'delete') {
      remove.mutate(id, {
        onSuccess: (answer) => {
          notice.success(answer.message);
          onClose();
        },
        onError: showError,
      });
    }
  };
  const editing = { disabled: !access.canEdit, title: access.reason ?? undefined };

  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={a ? a.description || a.merchantName || 'Fixed asset' : 'Fixed asset'}
      description={a ? `${a.assetType.name} · ${methodLabel(a.method)}` : undefined}
      actions={
        confirming !== null ? (
          <>
            <span className="self-center text-sm text-slate-700 dark:text-slate-200">{QUESTION[confirming]}</span>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Keep
            </Button>
            <Button variant="danger" loading={stop.isPending || remove.isPending} onClick={act}>
              {confirming === 'stop' ? 'Stop depreciation' : 'Delete asset'}
            </Button>
          </>
        ) : (
          <>
            {a && canStop && (
              <Button variant="secondary" {...editing} onClick={() => setConfirming('stop')}>
                Stop
              </Button>
            )}
            {a && (
              <Button variant="secondary" {...editing} onClick={() => setConfirming('delete')}>
                Delete
              </Button>
            )}
            <Button onClick={onClose}>Close</Button>
          </>
        )
      }
    >
      <div data-remote="accounting">
        {asset.isPending && (
          <div className="flex justify-center py-10">
            <Spinner label="Loading the fixed asset" />
          </div>
        )}
        {asset.isError && <EmptyState title="The fixed asset could not be loaded" description={describeError(asset.error)?.message} />}
        {a && <AssetBody asset={a} />}
        {access.reason && <p className="mt-3 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}
      </div>
    </Dialog>
  );
}

function AssetBody({ asset: a }: { asset: FixedAsset }) {
  const figures: [string, string][] = [
    ['Cost', formatMoney(a.cost)],
    ['Salvage value', formatMoney(a.salvageValue)],
    ['Useful life', lifeOf(a)],
    ['Accumulated depreciation', formatMoney(a.accumulatedDepreciation)],
    ['Carrying value', formatMoney(a.carryingValue)],
  ];
  if (a.method === 'UNITS_OF_PRODUCTION') figures.splice(3, 0, ['Units a year', a.unitProducedPerYear.toLocaleString('en-US')]);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
        <StatusBadge status={a.status} />
        <span>Purchased {formatShortDate(a.purchaseDate)}</span>
        <span>Depreciation from {formatShortDate(a.depreciationStartDate)}</span>
        {a.stoppedOn && <span>Stopped {formatShortDate(a.stoppedOn)}</span>}
        <Link
          to={`/transactions?txn=${encodeURIComponent(a.referenceWorkspaceTransaction)}`}
          className="font-medium text-brand-700 hover:underline dark:text-brand-300"
        >
          Open the purchase{a.merchantName ? ` (${a.merchantName})` : ''}
        </Link>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <ScheduleRows rows={a.schedule ?? []} asset={a} />
    </div>
  );
}

const th = 'px-3 py-2 text-right';

/** The depreciation schedule, month by month: posted months and the ones to come. */
function ScheduleRows({ rows, asset }: { rows: readonly DepreciationRow[]; asset: FixedAsset }) {
  const today = new Date().toISOString().slice(0, 10);
  if (rows.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No depreciation is scheduled.</p>;
  return (
    <div
      className="max-h-[50vh] overflow-auto rounded-lg border border-slate-200 dark:border-slate-800"
      tabIndex={0}
      aria-label="Depreciation schedule, scrollable"
    >
      <table className="w-full min-w-[40rem] text-sm" aria-label="Depreciation schedule">
        <thead className="sticky top-0 bg-white dark:bg-slate-900">
          <tr className="border-b border-slate-200 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400">
            <th scope="col" className="px-3 py-2">
              Date
            </th>
            <th scope="col" className={th}>
              Beginning value
            </th>
            <th scope="col" className={th}>
              Depreciation
            </th>
            <th scope="col" className={th}>
              Accumulated
            </th>
            <th scope="col" className={th}>
              Ending value
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.id}
              data-depreciated={r.isDepreciated}
              className={cx('border-b border-slate-100 last:border-0 dark:border-slate-800/70', !r.isDepreciated && 'text-slate-500 dark:text-slate-400')}
            >
              <td className="px-3 py-1.5 whitespace-nowrap tabular-nums">{formatShortDate(r.depreciationDateTime)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(r.beginningCarryingValue)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(r.depreciationAmount)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(r.accumulatedDepreciation)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{formatMoney(r.endingCarryingValue)}</td>
              <td className="px-3 py-1.5 whitespace-nowrap">{depreciationRowState(r, asset, today)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
