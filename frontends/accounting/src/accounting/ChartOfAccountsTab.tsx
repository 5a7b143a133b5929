import {
  TREE_INDENT_PX,
  VIEWER_DISABLED_MESSAGE,
  canEdit,
  describeError,
  ledgerSearch,
  useChartOfAccounts,
  useCurrentUser,
  type AccountTreeNode,
} from '@ledgerline/api';
import { Button, Card, ChevronDownIcon, DatePicker, EmptyState, Menu, Spinner, cx, formatMoney, todayIso } from '@ledgerline/ui';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AccountFormDialog, DeleteAccountDialog, MoveAccountDialog } from './AccountDialogs';
import { defaultPeriod } from './period';
import { expandableIds, treeBalance, visibleChartRows } from './rules';

type Action = { kind: 'add'; parentId: string | null } | { kind: 'edit' | 'move' | 'delete'; account: AccountTreeNode } | null;

/** Accounts that can hold lines (categories and sub-categories) open their ledger; types and groups only group. */
const hasLedger = (node: AccountTreeNode) => node.level >= 3;

/** /accounting?tab=coa: the chart of accounts tree with balances; add, edit, move and remove accounts. */
export function ChartOfAccountsTab() {
  const [params, setParams] = useSearchParams();
  // Balances as of `endDate` in the URL (spec §2 query parameters), else today.
  const asOf = /^\d{4}-\d{2}-\d{2}$/.test(params.get('endDate') ?? '') ? params.get('endDate') : null;
  const chart = useChartOfAccounts(asOf);
  const navigate = useNavigate();
  const role = useCurrentUser()?.role ?? 'Viewer';
  const editable = canEdit(role);
  const nodes = useMemo(() => chart.data?.chartOfAccounts ?? [], [chart.data]);
  // The category types start open, so the groups under them show at once.
  const [expanded, setExpanded] = useState<ReadonlySet<string> | null>(null);
  const open = expanded ?? new Set(nodes.map((n) => n.id));
  const rows = visibleChartRows(nodes, open);
  const [action, setAction] = useState<Action>(null);
  const parents = chart.data?.parentCategories ?? [];
  // Spec §2 acc + mode=edit: the account's edit opened from elsewhere (a tie-out notice's "Set opening balance").
  const linked = params.get('mode') === 'edit' ? findNode(nodes, params.get('acc')) : null;
  const closeLinked = () =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.delete('acc');
      next.delete('mode');
      return next;
    });

  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setExpanded(next);
  };

  // A saved account is shown: every account on its way is opened.
  const reveal = (pathIds: readonly string[]) => setExpanded(new Set([...open, ...pathIds]));

  const openLedger = (node: AccountTreeNode) => navigate({ search: ledgerSearch({ ledgerAccount: node.id, ...defaultPeriod() }) });

  const disabledTitle = editable ? undefined : VIEWER_DISABLED_MESSAGE;

  return (
    <Card
      title="Chart of Accounts"
      description={
        asOf === null
          ? 'Every account of your books in four levels, with its balance today.'
          : 'Every account of your books in four levels, with its balance at the end of the day chosen.'
      }
      actions={
        <div className="flex flex-wrap items-end gap-2">
          <DatePicker
            label="Balances as of"
            name="asOf"
            className="w-44"
            value={asOf ?? todayIso()}
            onChange={(date) => setParams(new URLSearchParams({ tab: 'coa', endDate: date }))}
          />
          <Button variant="ghost" size="sm" onClick={() => setExpanded(new Set(expandableIds(nodes)))} disabled={nodes.length === 0}>
            Expand all
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setExpanded(new Set())} disabled={nodes.length === 0}>
            Collapse all
          </Button>
          <Button size="sm" disabled={!editable} title={disabledTitle} onClick={() => setAction({ kind: 'add', parentId: null })}>
            Add account
          </Button>
        </div>
      }
    >
      {!editable && <p className="mb-4 text-sm text-slate-500 dark:text-slate-400">{VIEWER_DISABLED_MESSAGE}</p>}
      {chart.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label="Loading the chart of accounts" />
        </div>
      )}
      {chart.isError && (
        <EmptyState
          title="The chart of accounts could not be loaded"
          description={describeError(chart.error)?.message}
          action={
            <Button variant="secondary" onClick={() => void chart.refetch()}>
              Try again
            </Button>
          }
        />
      )}
      {chart.isSuccess && nodes.length === 0 && (
        <EmptyState title="No accounts yet" description="The default chart is created with your workspace; it will appear here in a moment." />
      )}
      {chart.isSuccess && nodes.length > 0 && (
        <div className="relative -mx-6 overflow-x-auto">
          <table className="w-full min-w-[40rem] text-sm" aria-label="Chart of accounts">
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400">
                <th scope="col" className="px-6 py-2">
                  Account
                </th>
                <th scope="col" className="px-3 py-2">
                  coaId
                </th>
                <th scope="col" className="px-3 py-2">
                  Type
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  Balance
                </th>
                <th scope="col" className="px-6 py-2 text-right">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ node, depth, hasChildren, expanded: isOpen }) => (
                <tr
                  key={node.id}
                  data-level={node.level}
                  className={cx('border-b border-slate-100 last:border-0 dark:border-slate-800/70', node.level === 1 && 'bg-slate-50 dark:bg-slate-800/40')}
                >
                  <td className="px-6 py-1.5">
                    <div className="flex items-center gap-1" style={{ paddingLeft: depth * TREE_INDENT_PX }}>
                      {hasChildren ? (
                        <button
                          type="button"
                          aria-expanded={isOpen}
                          aria-label={`${isOpen ? 'Collapse' : 'Expand'} ${node.name}`}
                          onClick={() => toggle(node.id)}
                          className="rounded p-1 text-slate-500 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:text-slate-400 dark:hover:bg-slate-800"
                        >
                          <ChevronDownIcon className={cx('size-4 transition-transform', !isOpen && '-rotate-90')} />
                        </button>
                      ) : (
                        <span className="inline-block w-6" aria-hidden="true" />
                      )}
                      {hasLedger(node) ? (
                        <button
                          type="button"
                          onClick={() => openLedger(node)}
                          title="Open this account's ledger"
                          className="rounded text-left font-medium text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:text-brand-300"
                        >
                          {node.name}
                        </button>
                      ) : (
                        <span
                          className={cx(node.level === 1 ? 'font-semibold text-slate-900 dark:text-white' : 'font-medium text-slate-800 dark:text-slate-200')}
                        >
                          {node.name}
                        </span>
                      )}
                    </div>
                  </td>
                  <td className="px-3 py-1.5 font-mono text-xs text-slate-600 tabular-nums dark:text-slate-400">{node.coaId}</td>
                  <td className="px-3 py-1.5 text-slate-600 dark:text-slate-400">{node.type}</td>
                  <BalanceCell balance={treeBalance(node)} total={hasChildren} />
                  <td className="px-6 py-1 text-right">{node.level > 1 && <RowActions node={node} editable={editable} onAction={setAction} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {action?.kind === 'add' && (
        <AccountFormDialog mode="add" open onClose={() => setAction(null)} parents={parents} account={null} parentId={action.parentId} onSaved={reveal} />
      )}
      {action?.kind === 'edit' && <AccountFormDialog mode="edit" open onClose={() => setAction(null)} parents={parents} account={action.account} />}
      {action === null && linked !== null && editable && (
        <AccountFormDialog key={linked.id} mode="edit" open onClose={closeLinked} parents={parents} account={linked} />
      )}
      {action?.kind === 'move' && <MoveAccountDialog open onClose={() => setAction(null)} parents={parents} account={action.account} onSaved={reveal} />}
      {action?.kind === 'delete' && <DeleteAccountDialog open onClose={() => setAction(null)} account={action.account} />}
    </Card>
  );
}

function findNode(nodes: readonly AccountTreeNode[], id: string | null): AccountTreeNode | null {
  if (id === null) return null;
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findNode(node.children, id);
    if (below) return below;
  }
  return null;
}

/** A group's balance is the total of its accounts (shown in semibold); an account's is its own. */
function BalanceCell({ balance, total }: { balance: number; total: boolean }) {
  return (
    <td
      className={cx(
        'px-3 py-1.5 text-right tabular-nums',
        total && 'font-semibold',
        balance < 0 ? 'text-red-700 dark:text-red-400' : 'text-slate-900 dark:text-slate-100',
      )}
    >
      {formatMoney(balance)}
    </td>
  );
}

function RowActions({ node, editable, onAction }: { node: AccountTreeNode; editable: boolean; onAction: (action: Action) => void }) {
  if (!editable) {
    return (
      <span className="text-xs text-slate-400 dark:text-slate-500" title={VIEWER_DISABLED_MESSAGE}>
        View only
      </span>
    );
  }
  const canHoldChildren = node.level <= 3 && node.bankAccountId === null;
  return (
    <Menu
      triggerLabel={`Actions for ${node.name}`}
      trigger={<span aria-hidden="true">⋯</span>}
      items={[
        ...(canHoldChildren ? [{ label: 'Add sub-account', onSelect: () => onAction({ kind: 'add', parentId: node.id }) }] : []),
        { label: 'Edit', onSelect: () => onAction({ kind: 'edit', account: node }) },
        { label: 'Move', onSelect: () => onAction({ kind: 'move', account: node }) },
        { label: 'Remove', danger: true, onSelect: () => onAction({ kind: 'delete', account: node }) },
      ]}
    />
  );
}
