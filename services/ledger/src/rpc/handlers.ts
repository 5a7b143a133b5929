import { create } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  AccountRefSchema,
  AccrualMonthSchema,
  CategorySuggestionSchema,
  BankTieOutSchema,
  AccrualScheduleSchema,
  AuditLogSchema,
  OpeningBalanceSchema,
  PostingResultSchema,
  BillerSchema,
  SplitPartSchema,
  CategorySchema,
  GeneralLedgerAccountSchema,
  LedgerLineSchema,
  LedgerService,
  PageMetaSchema,
  PathPartSchema,
  TransactionSchema,
  TransferCandidateSchema,
  TransferPairSchema,
  type AccrualSchedule,
  type Category,
  type Transaction,
} from '@ledgerline/proto/ledger/v1/ledger_pb';
import type { BillerRow, TxnViewRow } from '../store/rows.js';
import { transferStatusOf } from '../usecases/transactions.js';
import { bankTransactionMessage } from './bank-transaction-message.js';
import { commentHandlers } from './comments.js';
import { vendorRuleHandlers } from './vendor-rules.js';
import { categorisationHandlers } from './categorisation.js';
import { receiptHandlers } from './receipts.js';
import type { CategoryView } from '../usecases/categories.js';
import type { ScheduleView } from '../usecases/accruals.js';
import type { LedgerUseCases } from '../usecases/index.js';
import type { BankTieOutView } from '../usecases/bank-tieout.js';
import type { OpeningBalanceView } from '../usecases/opening-balances.js';
import type { PostingOutcome } from '../store/postings.js';

export function categoryMessage(c: CategoryView): Category {
  const a = c.account;
  return create(CategorySchema, {
    id: a.id,
    name: a.name,
    coaId: a.coa_id,
    type: a.class_group,
    level: a.level,
    balanceCents: BigInt(c.balanceCents),
    group: a.group_name,
    tag: a.tag,
    parentId: a.parent_id ?? '',
    isUserCreated: a.is_user_created,
    path: c.path.map((x) => create(PathPartSchema, x)),
    qboSynced: a.qbo_synced,
    bankAccountId: a.bank_account_id ?? '',
    systemKey: a.system_key ?? '',
  });
}

const billerMessage = (b: BillerRow) => create(BillerSchema, { id: b.id, name: b.name, categoryId: b.category_id ?? '' });

export function transactionMessage(t: TxnViewRow): Transaction {
  const category = t.category_id
    ? create(CategorySchema, {
        id: t.category_id,
        name: t.category_name ?? '',
        coaId: t.category_coa_id ?? 0,
        type: t.category_class ?? '',
        level: t.category_level ?? 0,
        parentId: t.category_parent_id ?? '',
      })
    : undefined;
  const bank = create(AccountRefSchema, { id: t.ledger_account_id ?? '', name: t.ledger_account_name ?? '' });
  const cat = create(AccountRefSchema, { id: t.category_id ?? '', name: t.category_name ?? '' });
  const inflow = t.amount_cents > 0;
  return create(TransactionSchema, {
    id: t.id,
    vendorTransactionId: t.external_id,
    biller: t.biller_id ? create(BillerSchema, { id: t.biller_id, name: t.biller_name ?? '', categoryId: t.biller_category_id ?? '' }) : undefined,
    memo: t.memo,
    amountCents: BigInt(t.amount_cents),
    date: t.txn_date ?? '',
    isoCurrencyCode: t.iso_currency_code,
    accountId: t.bank_account_id,
    category,
    debitAccount: inflow ? bank : cat,
    creditAccount: inflow ? cat : bank,
    journalEntryId: t.current_entry_id ?? '',
    isTransactionFinalized: t.is_finalized,
    pending: t.pending,
    isSplittedParent: t.is_split_parent,
    isSplittedChildren: t.is_split_child,
    isAccruedParent: t.is_accrued_parent,
    isAccruedChildren: t.is_accrual_child,
    entityType: t.entity_type ?? '',
    entityId: t.entity_id ?? '',
    qboSynced: t.qbo_synced,
    vendorId: t.vendor_id ?? '',
    appliedRuleId: t.applied_rule_id ?? '',
    ledgerAccountId: t.ledger_account_id ?? '',
    isOpeningBalance: t.is_opening_balance,
    splittedChildren: (t.splits ?? [])
      .filter((p) => !p.is_parent_part)
      .map((p) => create(SplitPartSchema, { id: p.id, amountCents: BigInt(p.amount_cents), categoryId: p.category_id, categoryName: p.category_name })),
    accrualStartDate: t.accrual?.startDate ?? '',
    accrualEndDate: t.accrual?.endDate ?? '',
    accrualStatus: t.accrual?.status ?? '',
    accruedChildren: (t.accrual?.months ?? []).map((m) =>
      create(AccrualMonthSchema, {
        id: m.id,
        accrualAmountCents: BigInt(m.amountCents),
        accrualCategory: t.accrual?.category ?? '',
        accrualDate: m.date,
        isTransactionAdded: m.isTransactionAdded,
        runningBalanceCents: BigInt(m.runningBalanceCents),
        journalEntryId: m.journalEntryId,
      }),
    ),
    transferPair: t.transfer_pair_id
      ? create(TransferPairSchema, {
          id: t.transfer_pair_id,
          accountId: t.pair_bank_account_id ?? '',
          accountName: t.pair_account_name ?? '',
          amountCents: BigInt(t.pair_amount_cents ?? 0),
          date: t.pair_date ?? '',
          name: t.pair_name ?? '',
        })
      : undefined,
    transferStatus: transferStatusOf(t) ?? '',
    creationMode: t.creation_mode ?? '',
    suggestion: t.suggested_category_id
      ? create(CategorySuggestionSchema, {
          categoryId: t.suggested_category_id,
          categoryName: t.suggested_category_name ?? '',
          vendorId: t.suggested_vendor_id ?? '',
          confidence: Number(t.suggestion_confidence ?? 0),
        })
      : undefined,
  });
}

/** An accrual schedule; running balances are what is left in Prepaid Expenses / Deferred Revenue after each month. */
export function scheduleMessage(s: ScheduleView): AccrualSchedule {
  return create(AccrualScheduleSchema, {
    transactionId: s.transactionId,
    accrualStartDate: s.accrualStartDate,
    accrualEndDate: s.accrualEndDate,
    accrualCategory: s.accrualCategory,
    accrualCategoryId: s.accrualCategoryId,
    recogniseCategoryId: s.recogniseCategoryId,
    recogniseCategoryName: s.recogniseCategoryName,
    accrualStatus: s.accrualStatus,
    stoppedOn: s.stoppedOn,
    amountCents: BigInt(s.amountCents),
    accruedChildren: s.months.map((m) =>
      create(AccrualMonthSchema, {
        id: m.id,
        accrualAmountCents: BigInt(m.amountCents),
        accrualCategory: s.accrualCategory,
        accrualDate: m.date,
        isTransactionAdded: m.isTransactionAdded,
        runningBalanceCents: BigInt(m.runningBalanceCents),
        journalEntryId: m.journalEntryId,
      }),
    ),
  });
}

const tenantOf = (ctx: HandlerContext) => requireTenant(ctx);

const postingResult = (o: PostingOutcome) =>
  create(PostingResultSchema, {
    entryId: o.entryId ?? '',
    seq: BigInt(o.seq),
    reversedEntryId: o.reversedEntryId ?? '',
    reversalEntryId: o.reversalEntryId ?? '',
    replayed: o.replayed,
    version: BigInt(o.version),
  });
const tieOutMessage = (t: BankTieOutView) =>
  create(BankTieOutSchema, {
    bankAccountId: t.bankAccountId,
    ledgerAccountId: t.ledgerAccountId,
    status: t.status,
    bankBalanceCents: BigInt(t.bankBalanceCents ?? 0),
    hasBankBalance: t.bankBalanceCents !== null,
    booksBalanceCents: BigInt(t.booksBalanceCents),
    pendingCents: BigInt(t.pendingCents),
    differenceCents: BigInt(t.differenceCents ?? 0),
    asOf: t.asOf?.toISOString() ?? '',
    isoCurrencyCode: t.isoCurrencyCode,
    openingBalancePinned: t.pinned,
  });

const openingBalanceMessage = (v: OpeningBalanceView | undefined) =>
  v ? create(OpeningBalanceSchema, { ...v, amountCents: BigInt(v.amountCents), seq: BigInt(v.seq) }) : undefined;

/** Thin edge: map the message, call one use case, map the answer. */
export function ledgerRoutes(u: LedgerUseCases) {
  return (router: ConnectRouter) =>
    router.service(
      LedgerService,
      withInputRules(LedgerService, {
        ...receiptHandlers(u.receipts),
        ...commentHandlers(u.comments),
        ...vendorRuleHandlers(u.vendorRules),
        ...categorisationHandlers(u.categorisation),
        async listCategories(_req, ctx) {
          return { categories: (await u.categories.list(tenantOf(ctx))).map(categoryMessage) };
        },
        async getChartOfAccounts(req, ctx) {
          const r = await u.categories.chart(tenantOf(ctx), req.endDate);
          return {
            chartOfAccounts: r.chartOfAccounts.map(categoryMessage),
            parentCategories: r.parentCategories.map(categoryMessage),
            fiscalYearStartMonth: r.fiscalYearStartMonth,
          };
        },
        async createCategory(req, ctx) {
          const r = await u.categories.create(tenantOf(ctx), req);
          return { category: categoryMessage(r.category), message: r.message, seq: BigInt(r.seq) };
        },
        async getFiscalYear(_req, ctx) {
          return u.categories.fiscalYear(tenantOf(ctx));
        },
        async setFiscalYear(req, ctx) {
          const r = await u.categories.setFiscalYear(tenantOf(ctx), req.fiscalYearStartMonth);
          return { ...r, seq: BigInt(r.seq) };
        },
        async getGroupsAndTags(req, ctx) {
          return u.categories.groupsAndTags(tenantOf(ctx), req.groupsAndTagsType);
        },
        async updateCategory(req, ctx) {
          const r = await u.categories.update(tenantOf(ctx), req);
          return { category: categoryMessage(r.category), message: r.message, seq: BigInt(r.seq) };
        },
        async moveCategory(req, ctx) {
          const r = await u.categories.move(tenantOf(ctx), req.categoryId, req.parentId);
          return { category: categoryMessage(r.category), message: r.message, seq: BigInt(r.seq) };
        },
        async deleteCategories(req, ctx) {
          const r = await u.categories.remove(tenantOf(ctx), req.categoryIds);
          return { message: r.message, seq: BigInt(r.seq) };
        },
        async listTransactions(req, ctx) {
          const r = await u.transactions.list(tenantOf(ctx), {
            accountIds: req.accountIds,
            startDate: req.startDate,
            endDate: req.endDate,
            billerIds: req.billerIds,
            categoryIds: req.categoryIds,
            description: req.description,
            amountCents: req.amountCents,
            minAmountCents: req.minAmountCents,
            maxAmountCents: req.maxAmountCents,
            flow: req.flow,
            finalization: req.finalization,
            order: req.order,
            transferStatus: req.transferStatus,
            page: req.page,
            take: req.take,
          });
          return { data: r.data.map(transactionMessage), meta: create(PageMetaSchema, r.meta) };
        },
        async getTransaction(req, ctx) {
          const transaction = transactionMessage(await u.transactions.get(tenantOf(ctx), req.id));
          return {
            transaction,
            bankAccountTransaction: req.fetchBankAccountTransaction
              ? bankTransactionMessage(await u.generalLedger.bankAccountTransaction(tenantOf(ctx), req.id))
              : undefined,
          };
        },
        async updateTransaction(req, ctx) {
          const r = await u.transactions.updateCategory(tenantOf(ctx), req.id, req.categoryId);
          return { transaction: transactionMessage(r.transaction), message: r.message, seq: BigInt(r.seq) };
        },
        async bulkUpdateTransactions(req, ctx) {
          const r = await u.transactions.bulkUpdate(tenantOf(ctx), req.transactions);
          return { transactions: r.transactions.map(transactionMessage), message: r.message, seq: BigInt(r.seq) };
        },
        async finalizeTransactions(req, ctx) {
          const r = await u.transactions.finalize(tenantOf(ctx), req.transactionIds, req.isTxnFinalized);
          return { transactions: r.transactions.map(transactionMessage), message: r.message, seq: BigInt(r.seq) };
        },
        async listTransferCandidates(req, ctx) {
          const r = await u.transfers.candidates(tenantOf(ctx), req.transactionId);
          return {
            data: r.data.map((c) =>
              create(TransferCandidateSchema, {
                id: c.id,
                amountCents: BigInt(c.amountCents),
                date: c.date,
                accountId: c.bankAccountId,
                accountName: c.accountName,
                name: c.name,
                score: c.score,
              }),
            ),
          };
        },
        async pairTransfer(req, ctx) {
          const r = await u.transfers.pair(tenantOf(ctx), req.transactionId, req.counterpartTransactionId);
          return { transactions: r.transactions.map(transactionMessage), message: r.message, seq: BigInt(r.seq) };
        },
        async unpairTransfer(req, ctx) {
          const r = await u.transfers.unpair(tenantOf(ctx), req.transactionId);
          return { transactions: r.transactions.map(transactionMessage), message: r.message, seq: BigInt(r.seq) };
        },
        async splitTransaction(req, ctx) {
          const r = await u.transactions.split(tenantOf(ctx), { parent: req.parentTransaction, parts: req.splitTransactions });
          return { transaction: transactionMessage(r.transaction), message: r.message, seq: BigInt(r.seq) };
        },
        async updateSplit(req, ctx) {
          const r = await u.transactions.updateSplit(tenantOf(ctx), {
            parent: req.parentTransaction,
            updates: req.updateTransactions,
            additions: req.splitTransactions,
            deleteIds: req.deleteTransactionIds,
          });
          return { transaction: transactionMessage(r.transaction), message: r.message, seq: BigInt(r.seq) };
        },
        async listAuditLogs(req, ctx) {
          const r = await u.transactions.auditLogs(tenantOf(ctx), req.transactionId, req.page, req.take);
          return {
            data: r.data.map((a) =>
              create(AuditLogSchema, {
                id: a.id,
                transactionId: a.transaction_id,
                userId: a.user_id ?? '',
                event: a.event,
                detailsJson: JSON.stringify(a.details),
                createdAt: new Date(a.created_at).toISOString(),
              }),
            ),
            meta: create(PageMetaSchema, r.meta),
          };
        },
        async listBillers(_req, ctx) {
          return { billers: (await u.transactions.listBillers(tenantOf(ctx))).map(billerMessage) };
        },
        async registerVendors(req, ctx) {
          await u.vendors.register(
            tenantOf(ctx),
            req.vendors.map((v) => ({ vendorId: v.vendorId, billerIds: v.billerIds })),
          );
          return {};
        },
        async mergeVendors(req, ctx) {
          return u.vendors.merge(tenantOf(ctx), req.parentVendorId, req.mergingVendorIds);
        },
        async forgetVendor(req, ctx) {
          await u.vendors.forget(tenantOf(ctx), req.vendorId);
          return {};
        },
        async getVendorActivity(req, ctx) {
          const rows = await u.vendors.activity(tenantOf(ctx), req.vendorIds);
          return {
            activity: rows.map((r) => ({
              vendorId: r.vendor_id,
              transactionCount: r.transaction_count,
              spendingCents: BigInt(r.spending_cents),
              inflowCents: BigInt(r.inflow_cents),
            })),
          };
        },
        async updateBiller(req, ctx) {
          const r = await u.transactions.updateBiller(tenantOf(ctx), req.id, req.categoryId);
          return { biller: billerMessage(r.biller), updatedTransactions: r.updatedTransactions, message: r.message, seq: BigInt(r.seq) };
        },
        async getGeneralLedger(req, ctx) {
          const rows = await u.generalLedger.generalLedger(tenantOf(ctx), req.startDate, req.endDate);
          return {
            data: rows.map((r) =>
              create(GeneralLedgerAccountSchema, {
                ledgerAccountId: r.account.id,
                name: r.account.name,
                coaId: r.account.coa_id,
                type: r.account.class_group,
                openingBalanceCents: BigInt(r.openingBalanceCents),
                debitCents: BigInt(r.debitCents),
                creditCents: BigInt(r.creditCents),
                closingBalanceCents: BigInt(r.closingBalanceCents),
                yearEndCloseCents: BigInt(r.yearEndCloseCents),
                yearEndCloseDebitCents: BigInt(r.yearEndCloseDebitCents),
                yearEndCloseCreditCents: BigInt(r.yearEndCloseCreditCents),
              }),
            ),
          };
        },
        async getLedgerTransactions(req, ctx) {
          const r = await u.generalLedger.ledgerTransactions(tenantOf(ctx), req);
          return {
            data: r.data.map((l) =>
              create(LedgerLineSchema, {
                ...l,
                debitCents: BigInt(l.debitCents),
                creditCents: BigInt(l.creditCents),
                ledgerAmountCents: BigInt(l.ledgerAmountCents),
                ledgerRunningBalanceCents: BigInt(l.ledgerRunningBalanceCents),
                bankTransaction: bankTransactionMessage(l.bankTransaction),
              }),
            ),
            meta: create(PageMetaSchema, r.meta),
            openingBalanceCents: BigInt(r.openingBalanceCents),
          };
        },
        async exportLedger(req, ctx) {
          return u.exports.export(tenantOf(ctx), req.format);
        },
        async postEntry(req, ctx) {
          return { result: postingResult(await u.postings.post(tenantOf(ctx), req)) };
        },
        async voidEntry(req, ctx) {
          return { result: postingResult(await u.postings.void(tenantOf(ctx), req)) };
        },
        async getOpeningBalance(req, ctx) {
          return { openingBalance: openingBalanceMessage(await u.openingBalances.get(tenantOf(ctx), req.categoryId)) };
        },
        async setOpeningBalance(req, ctx) {
          const r = await u.openingBalances.set(tenantOf(ctx), { categoryId: req.categoryId, amountCents: req.amountCents, date: req.date });
          return { openingBalance: openingBalanceMessage(r.openingBalance), message: r.message, seq: BigInt(r.seq) };
        },
        async removeOpeningBalance(req, ctx) {
          const r = await u.openingBalances.remove(tenantOf(ctx), req.categoryId);
          return { message: r.message, seq: BigInt(r.seq) };
        },
        async getBankTieOut(_req, ctx) {
          return { accounts: (await u.tieOut.list(tenantOf(ctx))).map(tieOutMessage) };
        },
        async createAccrual(req, ctx) {
          const r = await u.accruals.create(tenantOf(ctx), req);
          return { transaction: transactionMessage(r.transaction), schedule: scheduleMessage(r.schedule), message: r.message, seq: BigInt(r.seq) };
        },
        async updateAccrual(req, ctx) {
          const r = await u.accruals.update(tenantOf(ctx), req);
          return { transaction: transactionMessage(r.transaction), schedule: scheduleMessage(r.schedule), message: r.message, seq: BigInt(r.seq) };
        },
        async stopAccrual(req, ctx) {
          const r = await u.accruals.stop(tenantOf(ctx), req.transactionId);
          return { transaction: transactionMessage(r.transaction), schedule: scheduleMessage(r.schedule), message: r.message, seq: BigInt(r.seq) };
        },
        async getAccrualSchedule(req, ctx) {
          return { schedule: scheduleMessage(await u.accruals.schedule(tenantOf(ctx), req.transactionId)) };
        },
        async deleteAccrual(req, ctx) {
          const r = await u.accruals.remove(tenantOf(ctx), req.transactionId);
          return { transaction: transactionMessage(r.transaction), message: r.message, seq: BigInt(r.seq) };
        },
        async postPartyCredit(req, ctx) {
          const r = await u.partyCredits.post(tenantOf(ctx), {
            sourceType: req.sourceType,
            sourceId: req.sourceId,
            version: req.version,
            date: req.date,
            description: req.description,
            lines: req.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents })),
            dryRun: req.dryRun,
          });
          return { result: postingResult(r), partyAccountId: r.partyAccountId };
        },
        async postDocument(req, ctx) {
          const r = await u.documentPostings.post(tenantOf(ctx), {
            sourceType: req.sourceType,
            sourceId: req.sourceId,
            version: req.version,
            date: req.date,
            description: req.description,
            lines: req.lines.map((l) => ({ categoryId: l.categoryId, amountCents: l.amountCents, direction: l.direction })),
            payments: req.setPayments ? req.payments.map((p) => ({ transactionId: p.transactionId, amountCents: p.amountCents })) : undefined,
            dryRun: req.dryRun,
          });
          return {
            result: postingResult(r),
            partyAccountId: r.partyAccountId,
            payments: r.payments.map((p) => ({ transactionId: p.transactionId, amountCents: BigInt(p.amountCents) })),
          };
        },
      }),
    );
}
