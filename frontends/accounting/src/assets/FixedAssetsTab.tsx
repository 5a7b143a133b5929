import { useFixedAssets, type FixedAsset } from '@ledgerline/api';
import { methodLabel } from './rules';
import { Button, RecordLink, formatMoney, formatShortDate, useSearchWriter } from '@ledgerline/ui';
import { ListToolbar, RecordList, onePage, type RecordColumn } from '../records/RecordList';
import { useEditAccess } from '../transactions/access';
import { AssetDialog } from './AssetDialog';
import { CreateAssetDialog } from './CreateAssetDialog';
import { StatusBadge, lifeOf } from './present';

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

  const newButton = (
    <Button size="sm" onClick={() => set('mode', 'create')} disabled={!access.canEdit} title={access.reason ?? undefined}>
      New fixed asset
    </Button>
  );
  return (
    <section aria-label="Fixed assets">
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">Assets bought from a bank transaction, depreciated month by month.</p>
      <ListToolbar actions={newButton} />
      <RecordList<FixedAsset>
        label="Fixed assets"
        list={onePage(assets)}
        columns={assetColumns((id) => set('fixedAsset', id))}
        openId={open}
        empty={{
          title: 'No fixed assets yet',
          description: 'Make one from the bank transaction that paid for it: its cost moves to an asset account and is depreciated over its useful life.',
          action: newButton,
        }}
      />
      {open !== null && <AssetDialog id={open} onClose={() => set('fixedAsset', null)} />}
      {creating && <CreateAssetDialog onClose={() => set('mode', null)} onCreated={(id) => set('fixedAsset', id)} />}
    </section>
  );
}

/** The assets' columns: the purchase date, method, life and depreciation so far fold away below 48em (RecordList). */
function assetColumns(onOpen: (id: string) => void): RecordColumn<FixedAsset>[] {
  return [
    {
      header: 'Name',
      cell: (a) => (
        <>
          <RecordLink onOpen={() => onOpen(a.id)}>{a.description || a.merchantName || 'Fixed asset'}</RecordLink>
          <div className="truncate text-xs text-slate-500 dark:text-slate-400">{a.assetType.name}</div>
        </>
      ),
    },
    { header: 'Purchased', width: 'w-28', fold: true, cell: (a) => <span className="tabular-nums">{formatShortDate(a.purchaseDate)}</span> },
    { header: 'Cost', width: 'w-28', numeric: true, fold: true, cell: (a) => formatMoney(a.cost) },
    { header: 'Method', width: 'w-40', fold: true, cell: (a) => methodLabel(a.method) },
    { header: 'Useful life', width: 'w-28', numeric: true, fold: true, cell: (a) => lifeOf(a) },
    { header: 'Accumulated depreciation', width: 'w-36', numeric: true, fold: true, cell: (a) => formatMoney(a.accumulatedDepreciation) },
    { header: 'Carrying value', width: 'w-24 md:w-32', numeric: true, cell: (a) => <span className="font-medium">{formatMoney(a.carryingValue)}</span> },
    { header: 'Status', width: 'w-32 md:w-36', cell: (a) => <StatusBadge status={a.status} /> },
  ];
}
