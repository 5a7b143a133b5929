import { describe, expect, it } from 'vitest';
import { TREE_INDENT_PX, ledgerSearch, periodFromSearch, type AccountTreeNode, type ChartParentCategory } from '@ledgerline/api';
import {
  ancestorIds,
  expandableIds,
  findLedgerLine,
  generalLedgerTotals,
  moveTargets,
  nearScrollEnd,
  subtreeHeight,
  transactionLinkOf,
  treeBalance,
  validateAccountForm,
  visibleChartRows,
} from '../src/accounting/rules';

let seq = 0;
function node(
  name: string,
  level: number,
  children: AccountTreeNode[] = [],
  type: AccountTreeNode['type'] = 'Expenses',
  parentId: string | null = null,
): AccountTreeNode {
  seq += 1;
  const id = `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`;
  const self: AccountTreeNode = {
    id,
    name,
    coaId: 10000 + seq,
    type,
    level,
    balance: 0,
    group: '',
    tag: '',
    parentId,
    isUserCreated: false,
    qboSynced: false,
    bankAccountId: null,
    systemKey: null,
    path: { ids: [id], names: [name] },
    children: [],
  };
  // Children learn their parent and path from the node that holds them.
  const adopt = (child: AccountTreeNode, ancestors: { ids: string[]; names: string[] }): AccountTreeNode => {
    const path = { ids: [...ancestors.ids, child.id], names: [...ancestors.names, child.name] };
    return { ...child, path, children: child.children.map((c) => adopt(c, path)) };
  };
  self.children = children.map((c) => adopt({ ...c, parentId: id }, self.path));
  return self;
}

const asParent = (n: AccountTreeNode): ChartParentCategory => {
  const { children: _children, ...rest } = n;
  return rest;
};

function flatten(nodes: AccountTreeNode[]): AccountTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

describe('chart of accounts tree', () => {
  const software = node('Software', 4);
  const office = node('Office', 3, [software]);
  const travel = node('Travel', 3);
  const operating = node('Operating Expenses', 2, [office, travel]);
  const expenses = node('Expenses', 1, [operating]);
  const cash = node('Cash', 2, [], 'Assets');
  const assets = node('Assets', 1, [cash], 'Assets');
  const chart = [assets, expenses];

  it('shows children only under expanded nodes, each one level deeper', () => {
    expect(visibleChartRows(chart, new Set()).map((r) => r.node.name)).toEqual(['Assets', 'Expenses']);
    const rows = visibleChartRows(chart, new Set([expenses.id, expenses.children[0]!.id]));
    expect(rows.map((r) => [r.node.name, r.depth * TREE_INDENT_PX, r.hasChildren, r.expanded])).toEqual([
      ['Assets', 0, true, false],
      ['Expenses', 0, true, true],
      ['Operating Expenses', 24, true, true],
      ['Office', 48, true, false],
      ['Travel', 48, false, false],
    ]);
  });

  it("shows a group's balance as the ledger rolled it up (its accounts included), not adding its children again", () => {
    const a = { ...node('A', 4), balance: 0.1 };
    const b = { ...node('B', 4), balance: 0.2 };
    const group = { ...node('G', 3, [a, b]), balance: 1.35 };
    expect(treeBalance(group)).toBe(1.35);
    expect(treeBalance(a)).toBe(0.1);
  });

  it('finds what can expand and the way to an account', () => {
    const all = flatten(chart);
    const byName = (n: string) => all.find((x) => x.name === n)!;
    expect(new Set(expandableIds(chart))).toEqual(new Set([assets.id, expenses.id, byName('Operating Expenses').id, byName('Office').id]));
    expect(ancestorIds(chart, byName('Software').id)).toEqual([expenses.id, byName('Operating Expenses').id, byName('Office').id]);
    expect(ancestorIds(chart, assets.id)).toEqual([]);
    expect(ancestorIds(chart, 'missing')).toBeNull();
    expect(subtreeHeight(expenses)).toBe(3);
    expect(subtreeHeight(byName('Travel'))).toBe(0);
  });

  it('offers moves within the class, never into itself, its own parent or below level 4', () => {
    const all = flatten(chart);
    const byName = (n: string) => all.find((x) => x.name === n)!;
    const parents = all.filter((n) => n.level <= 3).map(asParent);
    // Office has a sub-category, so it cannot go under a level-3 account; Operating Expenses is its parent already.
    expect(moveTargets(parents, byName('Office')).map((p) => p.name)).toEqual(['Expenses']);
    expect(moveTargets(parents, expenses)).toEqual([]);
    // Travel (a leaf) may go under Office (level 3); not under Cash (another class) nor its own parent.
    expect(moveTargets(parents, byName('Travel')).map((p) => p.name)).toEqual(['Expenses', 'Office']);
    expect(moveTargets(parents, byName('Operating Expenses')).map((p) => p.name)).toEqual([]);
  });
});

describe('account form', () => {
  it("refuses a coaId under 10000 with the spec's message", () => {
    expect(validateAccountForm({ name: 'Meals', coaId: '9999', parentId: 'p' }, 'add')).toEqual({ coaId: 'coaId must be minimum 5 digits number' });
    expect(validateAccountForm({ name: 'Meals', coaId: '10000', parentId: 'p' }, 'add')).toEqual({});
    expect(validateAccountForm({ name: 'Meals', coaId: '12.5', parentId: 'p' }, 'add')).toEqual({ coaId: 'coaId must be minimum 5 digits number' });
  });
  it('needs a name, a coaId and, when adding, a parent', () => {
    expect(validateAccountForm({ name: ' ', coaId: '', parentId: '' }, 'add')).toEqual({
      name: 'Name is required',
      coaId: 'coaId is required',
      parentId: 'Parent account is required',
    });
    expect(validateAccountForm({ name: 'Meals', coaId: '61000', parentId: '' }, 'edit')).toEqual({});
  });
});

describe('ledger tab location (spec §2)', () => {
  it('writes the account, period and line into the URL', () => {
    expect(ledgerSearch({ ledgerAccount: 'acc', startDate: '2026-01-01', endDate: '2026-11-23' })).toBe(
      '?tab=ledger&ledgerAccount=acc&startDate=2026-01-01&endDate=2026-11-23',
    );
    expect(ledgerSearch({ startDate: '2026-01-01', endDate: '2026-01-31', ledgerTxn: 'line' })).toBe(
      '?tab=ledger&startDate=2026-01-01&endDate=2026-01-31&ledgerTxn=line',
    );
  });
  it('reads a well-formed period from the URL, else the default', () => {
    const fallback = { startDate: '2026-01-01', endDate: '2026-11-23' };
    expect(periodFromSearch(new URLSearchParams('startDate=2025-02-01&endDate=2025-02-28'), fallback)).toEqual({
      startDate: '2025-02-01',
      endDate: '2025-02-28',
    });
    expect(periodFromSearch(new URLSearchParams('startDate=2025-03-01&endDate=2025-02-28'), fallback)).toEqual(fallback);
    expect(periodFromSearch(new URLSearchParams('startDate=02/01/2025&endDate=2025-02-28'), fallback)).toEqual(fallback);
    expect(periodFromSearch(new URLSearchParams(''), fallback)).toEqual(fallback);
  });
  it('links only the lines booking a bank transaction to the transaction drawer', () => {
    expect(transactionLinkOf({ transactionId: 't1', sourceType: 'WorkspaceTransaction', isOpeningBalance: false })).toBe('/transactions?txn=t1');
    expect(transactionLinkOf({ transactionId: null, sourceType: 'ManualEntry', isOpeningBalance: false })).toBeNull();
    expect(transactionLinkOf({ transactionId: 't1', sourceType: 'WorkspaceTransaction', isOpeningBalance: true })).toBeNull();
  });
});

describe('the line ledgerTxn names', () => {
  const lines = [
    { id: null, transactionId: null },
    { id: '11', transactionId: 't1' },
    { id: '12', transactionId: 't1' },
    { id: '13', transactionId: 't1' },
    { id: '14', transactionId: 't2' },
  ];
  it('is the line with that id, else the latest line of that transaction', () => {
    expect(findLedgerLine(lines, '12')?.id).toBe('12');
    expect(findLedgerLine(lines, 't1')?.id).toBe('13');
    expect(findLedgerLine(lines, 't2')?.id).toBe('14');
    expect(findLedgerLine(lines, 'zz')).toBeNull();
    expect(findLedgerLine(lines, null)).toBeNull();
  });
});

describe('infinite scroll (spec §9)', () => {
  it('fetches more once the rest is within 2.2 viewports', () => {
    expect(nearScrollEnd({ scrollTop: 0, scrollHeight: 3000, clientHeight: 800 })).toBe(false); // 2200 left = 2.75 viewports
    expect(nearScrollEnd({ scrollTop: 240, scrollHeight: 2800, clientHeight: 800 })).toBe(true); // 1760 left = 2.2 viewports
    expect(nearScrollEnd({ scrollTop: 0, scrollHeight: 800, clientHeight: 800 })).toBe(true);
  });
});

describe('general ledger totals', () => {
  it('adds debits and credits in cents', () => {
    const row = (debit: number, credit: number) => ({
      ledgerAccountId: 'a',
      name: 'A',
      coaId: 10000,
      type: 'Assets',
      openingBalance: 0,
      debit,
      credit,
      closingBalance: 0,
      yearEndClose: 0,
    });
    expect(generalLedgerTotals([row(0.1, 0), row(0.2, 0.3)])).toEqual({ debit: 0.3, credit: 0.3 });
  });
});
