import { centsToDollars, orNull } from '@ledgerline/platform';
import type { BankAccountTransaction, Biller, Category, Transaction } from '@ledgerline/proto/ledger/v1/ledger_pb';

/** The ledger's Connect client and how its messages are presented as the spec's JSON (the routes under routes/ use these). */
export function categoryJson(c: Category) {
  return {
    id: c.id,
    name: c.name,
    coaId: c.coaId,
    type: c.type,
    level: c.level,
    balance: centsToDollars(c.balanceCents),
    group: c.group,
    tag: c.tag,
    parentId: orNull(c.parentId),
    isUserCreated: c.isUserCreated,
    qboSynced: c.qboSynced,
    bankAccountId: orNull(c.bankAccountId),
    systemKey: orNull(c.systemKey),
    path: { ids: c.path.map((p) => p.id), names: c.path.map((p) => p.name) },
  };
}

type CategoryJson = ReturnType<typeof categoryJson>;
type TreeNode = CategoryJson & { children: TreeNode[] };

/** The flat chart (each with its parent id) as the tree the screen draws. */
export function chartTree(categories: Category[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>(categories.map((c) => [c.id, { ...categoryJson(c), children: [] }]));
  const roots: TreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export const billerJson = (b: Biller) => ({ id: b.id, name: b.name, categoryId: orNull(b.categoryId) });

/** The bank transaction a ledger line books (fetchBankAccountTransaction); null when the line books none. */
export const bankTransactionJson = (b: BankAccountTransaction | undefined) =>
  b
    ? {
        id: b.id,
        bankTransactionId: b.bankTransactionId,
        dateTime: b.date,
        amount: centsToDollars(b.amountCents),
        isoCurrencyCode: b.isoCurrencyCode,
        name: b.name,
        memo: b.memo,
        biller: b.biller ? billerJson(b.biller) : null,
        bankAccountId: b.bankAccountId,
        bankLedgerAccountId: orNull(b.bankLedgerAccountId),
        bankAccountName: b.bankAccountName,
        categoryId: orNull(b.categoryId),
        isTransactionFinalized: b.isTransactionFinalized,
        pending: b.pending,
      }
    : null;

export function transactionJson(t: Transaction | undefined) {
  if (!t) throw new Error('ledger answered without a transaction');
  const abs = Math.abs(centsToDollars(t.amountCents));
  return {
    id: t.id,
    vendorTransactionId: t.vendorTransactionId,
    biller: t.biller ? billerJson(t.biller) : null,
    memo: t.memo,
    amount: centsToDollars(t.amountCents),
    dateTime: t.date,
    isoCurrencyCode: t.isoCurrencyCode,
    accountId: t.accountId,
    ledgerAccountId: orNull(t.ledgerAccountId),
    runningBalance: null,
    category: t.category
      ? {
          id: t.category.id,
          name: t.category.name,
          coaId: t.category.coaId,
          type: t.category.type,
          level: t.category.level,
          parentId: orNull(t.category.parentId),
        }
      : null,
    debit: abs,
    credit: abs,
    debitJournalId: orNull(t.journalEntryId),
    creditJournalId: orNull(t.journalEntryId),
    debitAccount: { id: t.debitAccount?.id ?? '', name: t.debitAccount?.name ?? '' },
    creditAccount: { id: t.creditAccount?.id ?? '', name: t.creditAccount?.name ?? '' },
    isTransactionFinalized: t.isTransactionFinalized,
    isAccruedParent: t.isAccruedParent,
    isAccruedChildren: t.isAccruedChildren,
    isSplittedParent: t.isSplittedParent,
    isSplittedChildren: t.isSplittedChildren,
    isOpeningBalance: t.isOpeningBalance,
    entityType: orNull(t.entityType),
    entityId: orNull(t.entityId),
    qboSynced: t.qboSynced,
    pending: t.pending,
    vendorId: orNull(t.vendorId),
    appliedRuleId: orNull(t.appliedRuleId),
    splittedChildren: t.splittedChildren.map((p) => ({
      id: p.id,
      amount: centsToDollars(p.amountCents),
      categoryId: p.categoryId,
      categoryName: p.categoryName,
    })),
    accrualStartDate: orNull(t.accrualStartDate),
    accrualEndDate: orNull(t.accrualEndDate),
    accrualStatus: orNull(t.accrualStatus),
    accruedChildren: t.accruedChildren.map((m) => ({
      id: m.id,
      accrualAmount: centsToDollars(m.accrualAmountCents),
      accrualCategory: m.accrualCategory,
      accrualDateTime: m.accrualDate,
      isTransactionAdded: m.isTransactionAdded,
      runningBalance: centsToDollars(m.runningBalanceCents),
    })),
    transferPair: t.transferPair
      ? {
          id: t.transferPair.id,
          accountId: t.transferPair.accountId,
          accountName: t.transferPair.accountName,
          amount: centsToDollars(t.transferPair.amountCents),
          dateTime: t.transferPair.date,
          name: t.transferPair.name,
        }
      : null,
    transferStatus: t.transferStatus === 'paired' || t.transferStatus === 'review' ? t.transferStatus : null,
    creationMode: t.creationMode === 'manual' || t.creationMode === 'auto' ? t.creationMode : null,
    suggestion: t.suggestion
      ? {
          categoryId: t.suggestion.categoryId,
          categoryName: t.suggestion.categoryName,
          vendorId: orNull(t.suggestion.vendorId),
          confidence: t.suggestion.confidence,
        }
      : null,
  };
}
