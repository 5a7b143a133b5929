import { describeError, methodLabel, useFixedAssets, type FixedAsset } from '@ledgerline/api';
import { Button, Card, EmptyState, RecordLink, Spinner, formatMoney, formatShortDate, useSearchWriter } from '@ledgerline/ui';
import { useEditAccess } from '../transactions/access';
import { AssetDialog } from './AssetDialog';
import { CreateAssetDialog } from './CreateAssetDialog';
import { StatusBadge, lifeOf } from './present';

const headRow = 'border-b border-slate-200 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400';

/**
 * /accounting?tab=fixed-assets (spec §2 Fixed Assets tab; issue #19 item 8): the workspace's assets with what has been
 * depreciated; `?fixedAsset=<id>` opens one with its depreciation schedule (Stop, Delete); `mode=create` the dialog
 * that makes one from a bank transaction (decision 0030).
 */
export function FixedAssetsTab() {
  const [params, writeSearch] = useSearchWriter();
  const assets = useFixedAssets();
  const access = useEditAccess();
  const open = params.get('fixedAsset');
  const creating = params.get('mode') === 'create';
  const set = (name: 'fixedAsset' | 'mode', value: string | null) =>
    writeSearch((latest) => {
      const next = new URLSearchParams(latest);
      next.delete('fixedAsset');
      next.delete('mode');
      if (value !== null) next.set(name, value);
      return next;
    });
  const rows = assets.data?.data ?? [];

  const newButton = (
    <Button onClick={() => set('mode', 'create')} disabled={!access.canEdit} title={access.reason ?? undefined}>
      New fixed asset
    </Button>
  );
  return (
    <Card title="Fixed Assets" description="Assets bought from a bank transaction, depreciated month by month." actions={newButton}>
      {assets.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label="Loading the fixed assets" />
        </div>
      )}
      {assets.isError && (
        <EmptyState
          title="The fixed assets could not be loaded"
          description={describeError(assets.error)?.message}
          action={
            <Button variant="secondary" onClick={() => void assets.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {assets.isSuccess && rows.length === 0 && (
        <EmptyState
          title="No fixed assets yet"
          description="Make one from the bank transaction that paid for it: its cost moves to an asset account and is depreciated over its useful life."
          action={newButton}
        />
      )}
      {assets.isSuccess && rows.length > 0 && (
        <div className="-mx-6 overflow-x-auto">
          <table className="w-full min-w-[56rem] text-sm" aria-label="Fixed assets">
            <thead>
              <tr className={headRow}>
                <th scope="col" className="px-6 py-2">
                  Name
                </th>
                <th scope="col" className="px-3 py-2">
                  Purchased
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Cost
                </th>
                <th scope="col" className="px-3 py-2">
                  Method
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Useful life
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Accumulated depreciation
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Carrying value
                </th>
                <th scope="col" className="px-6 py-2">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <AssetRow key={a.id} asset={a} onOpen={() => set('fixedAsset', a.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open !== null && <AssetDialog id={open} onClose={() => set('fixedAsset', null)} />}
      {creating && <CreateAssetDialog onClose={() => set('mode', null)} onCreated={(id) => set('fixedAsset', id)} />}
    </Card>
  );
}

function AssetRow({ asset: a, onOpen }: { asset: FixedAsset; onOpen: () => void }) {
  return (
    <tr className="border-b border-slate-100 last:border-0 hover:bg-slate-50 dark:border-slate-800/70 dark:hover:bg-slate-800/40">
      <td className="max-w-64 px-6 py-2">
        <RecordLink onOpen={onOpen}>{a.description || a.merchantName || 'Fixed asset'}</RecordLink>
        <div className="truncate text-xs text-slate-500 dark:text-slate-400">{a.assetType.name}</div>
      </td>
      <td className="px-3 py-2 whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-400">{formatShortDate(a.purchaseDate)}</td>
      <td className="px-3 py-2 text-right tabular-nums">{formatMoney(a.cost)}</td>
      <td className="px-3 py-2 whitespace-nowrap">{methodLabel(a.method)}</td>
      <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">{lifeOf(a)}</td>
      <td className="px-3 py-2 text-right tabular-nums">{formatMoney(a.accumulatedDepreciation)}</td>
      <td className="px-3 py-2 text-right font-medium tabular-nums">{formatMoney(a.carryingValue)}</td>
      <td className="px-6 py-2">
        <StatusBadge status={a.status} />
      </td>
    </tr>
  );
}
