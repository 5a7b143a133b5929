import { AppError, ErrorKind, isUuid } from '@ledgerline/platform';
import { isPostableLevel, SYSTEM, type ClassGroup } from '../domain/chart.js';
import { bodyHash, checkPostingRequest } from '../domain/source-posting.js';
import { accountById, accountBySystemKey } from '../store/chart-store.js';
import { billerCategory, setEntityLink } from '../store/document-payments-store.js';
import { applyVersion } from '../store/postings.js';
import { ownSeq } from '../store/seq.js';
import { assertEditable, lockRow, repost } from './booking.js';
import { assertCanEdit, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { keyedAccount } from './party-credits.js';

/**
 * Fixed assets in the books (issue #19 item 6; proto ledgerline/ledger/v1/fixed_assets.proto): the purchase re-booked
 * from its category to the asset account and linked to the asset, its release when the asset is deleted, and each
 * month's depreciation (debit Depreciation Expense, credit Accumulated Depreciation) as a FixedAsset source.
 */
export const FIXED_ASSET_ACCOUNTS = {
  accumulated: { systemKey: 'accumulated_depreciation', name: 'Accumulated Depreciation', coaId: 15300, classGroup: 'Assets' as ClassGroup },
  expense: { systemKey: 'depreciation_expense', name: 'Depreciation Expense', coaId: 61500, classGroup: 'Expenses' as ClassGroup },
} as const;

export const FIXED_ASSET_MSG = {
  transactionId: 'transactionId must be a UUID',
  assetTypeId: 'assetTypeId must be a UUID',
  transactionNotFound: 'Transaction not found',
  assetTypeNotFound: 'Asset type not found',
  moneyIn: 'transactionId must be a purchase (money going out)',
  linkedElsewhere: 'This transaction is already linked to another fixed asset',
  notAssetAccount: 'assetTypeId must be an asset account (e.g. Property and Equipment), not a bank account, a group or Accumulated Depreciation',
  amount: 'amountCents must be a whole number of cents (0 voids)',
} as const;

export interface PurchaseBooked {
  previousCategoryId: string;
  amountCents: number;
  date: string;
  seq: number;
  assetAccountName: string;
  merchantName: string;
}

class DryRunDone extends Error {
  constructor(readonly answer: PurchaseBooked) {
    super('dry run');
  }
}

export class FixedAssetPostingUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async bookPurchase(tenant: Tenant, input: { assetId: string; transactionId: string; assetAccountId: string; dryRun?: boolean }): Promise<PurchaseBooked> {
    assertCanEdit(tenant);
    const problems = [];
    if (!isUuid(input.assetId)) problems.push({ field: 'id', message: 'id must be a UUID' });
    if (!isUuid(input.transactionId)) problems.push({ field: 'transactionId', message: FIXED_ASSET_MSG.transactionId });
    if (!isUuid(input.assetAccountId)) problems.push({ field: 'assetTypeId', message: FIXED_ASSET_MSG.assetTypeId });
    if (problems.length > 0) throw AppError.invalid(problems);
    try {
      return await inWorkspace(this.deps.db, tenant, async (trx) => {
        const row = await lockRow(trx, input.transactionId).catch((err: unknown) => {
          if (err instanceof AppError && err.kind === ErrorKind.NotFound)
            throw new AppError(ErrorKind.NotFound, FIXED_ASSET_MSG.transactionNotFound, {
              fields: [{ field: 'transactionId', message: FIXED_ASSET_MSG.transactionNotFound }],
            });
          throw err;
        });
        const account = await accountById(trx, input.assetAccountId);
        if (!account)
          throw new AppError(ErrorKind.NotFound, FIXED_ASSET_MSG.assetTypeNotFound, {
            fields: [{ field: 'assetTypeId', message: FIXED_ASSET_MSG.assetTypeNotFound }],
          });
        if (
          account.class_group !== 'Assets' ||
          !isPostableLevel(account.level) ||
          account.bank_account_id ||
          (account.system_key !== null && account.system_key !== undefined) ||
          (account.coa_id === FIXED_ASSET_ACCOUNTS.accumulated.coaId && account.name === FIXED_ASSET_ACCOUNTS.accumulated.name)
        ) {
          throw AppError.invalid([{ field: 'assetTypeId', message: FIXED_ASSET_MSG.notAssetAccount }]);
        }
        const base = { amountCents: Math.abs(row.amount_cents), date: row.txn_date ?? '', assetAccountName: account.name, merchantName: row.name };
        if (row.entity_type === 'FixedAsset' && row.entity_id === input.assetId) {
          // Already booked by an earlier call (a retry): the category it had before is not known any more here; the
          // owner kept it from the first answer.
          return { ...base, previousCategoryId: '', seq: 0 };
        }
        if (row.entity_type === 'FixedAsset')
          throw new AppError(ErrorKind.Conflict, FIXED_ASSET_MSG.linkedElsewhere, {
            appErrorCode: 'TRANSACTION_LINKED',
            fields: [{ field: 'transactionId', message: FIXED_ASSET_MSG.linkedElsewhere }],
          });
        if (row.amount_cents >= 0) throw AppError.invalid([{ field: 'transactionId', message: FIXED_ASSET_MSG.moneyIn }]);
        await assertEditable(trx, row);
        const answer = { ...base, previousCategoryId: row.category_id ?? '', seq: 0 };
        if (input.dryRun) throw new DryRunDone(answer);
        await repost(trx, row, { categoryId: account.id });
        await setEntityLink(trx, row.id, 'FixedAsset', input.assetId);
        return { ...answer, seq: await ownSeq(trx, tenant.workspaceId) };
      });
    } catch (err) {
      if (err instanceof DryRunDone) return err.answer;
      throw err;
    }
  }

  async releasePurchase(tenant: Tenant, input: { assetId: string; transactionId: string; categoryId: string }): Promise<{ seq: number }> {
    assertCanEdit(tenant);
    if (!isUuid(input.transactionId)) throw AppError.invalid([{ field: 'transactionId', message: FIXED_ASSET_MSG.transactionId }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const row = await lockRow(trx, input.transactionId).catch(() => undefined);
      if (!row || row.entity_type !== 'FixedAsset' || row.entity_id !== input.assetId) return { seq: 0 };
      await setEntityLink(trx, row.id, null, null);
      const before = isUuid(input.categoryId) ? await accountById(trx, input.categoryId) : undefined;
      const category =
        before && isPostableLevel(before.level) && !before.bank_account_id
          ? before.id
          : ((row.biller_id ? await billerCategory(trx, row.biller_id) : null) ?? (await accountBySystemKey(trx, SYSTEM.uncategorisedExpense)).id);
      await repost(trx, { ...row, entity_type: null, entity_id: null }, { categoryId: category });
      return { seq: await ownSeq(trx, tenant.workspaceId) };
    });
  }

  async postDepreciation(
    tenant: Tenant,
    input: { sourceId: string; version: bigint | number; date: string; amountCents: bigint | number; description: string },
  ): Promise<{ entryId: string; seq: number; replayed: boolean; expenseAccountId: string; accumulatedAccountId: string }> {
    assertCanEdit(tenant);
    const amount = Number(input.amountCents);
    if (!Number.isSafeInteger(amount) || amount < 0) throw AppError.invalid([{ field: 'amountCents', message: FIXED_ASSET_MSG.amount }]);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const expense = await keyedAccount(trx, tenant.workspaceId, FIXED_ASSET_ACCOUNTS.expense);
      const accumulated = await keyedAccount(trx, tenant.workspaceId, FIXED_ASSET_ACCOUNTS.accumulated);
      const lines =
        amount === 0
          ? []
          : [
              { accountId: expense.id, direction: 'debit' as const, amountCents: amount },
              { accountId: accumulated.id, direction: 'credit' as const, amountCents: amount },
            ];
      const { request, problems } = checkPostingRequest({
        sourceType: 'FixedAsset',
        sourceId: input.sourceId,
        version: input.version,
        date: amount === 0 ? undefined : input.date,
        description: input.description,
        lines,
      });
      if (!request) throw AppError.invalid(problems);
      const outcome = await applyVersion(trx, { ...request, workspaceId: tenant.workspaceId, bodyHash: bodyHash(request) });
      return {
        entryId: outcome.entryId ?? '',
        seq: outcome.seq,
        replayed: outcome.replayed,
        expenseAccountId: expense.id,
        accumulatedAccountId: accumulated.id,
      };
    });
  }
}
