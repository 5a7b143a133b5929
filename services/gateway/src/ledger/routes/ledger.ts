import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAmounts, type Amounts } from '../../http/amounts.js';
import { authOf, WRITE, READ } from '../../http/auth.js';
import {
  TRANSACTION_LIST_QUERY,
  type TransactionFiltersQuery,
  ChartChangedResponseSchema,
  FiscalYearBodySchema,
  FiscalYearChangedSchema,
  FiscalYearSchema,
  AuditLogsResponseSchema,
  BillersResponseSchema,
  BillerUpdatedResponseSchema,
  BulkUpdateBodySchema,
  CategoriesResponseSchema,
  CategoryIdBodySchema,
  CategoryResponseSchema,
  ChartOfAccountsResponseSchema,
  CreateCategoryBodySchema,
  DeleteCategoriesBodySchema,
  SplitBodySchema,
  UpdateSplitBodySchema,
  FinalizeBodySchema,
  GroupsAndTagsResponseSchema,
  MoveCategoryBodySchema,
  UpdateCategoryBodySchema,
  GeneralLedgerResponseSchema,
  LEDGER_SCHEMAS,
  LedgerTransactionsResponseSchema,
  TransactionSchema,
  TransactionsPageSchema,
  TransactionsUpdatedResponseSchema,
  TransactionUpdatedResponseSchema,
  TransferCandidatesResponseSchema,
  PairTransferBodySchema,
  UnpairTransferBodySchema,
} from '../schemas.js';
import { ref, responses, WORKSPACE_HEADER_SCHEMA, BEARER, uuid } from '../../http/schemas.js';
import type { Biller, Category } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { bankTransactionJson, billerJson, categoryJson, chartTree, transactionJson } from '../present.js';
import { registerAccrualRoutes } from './accruals.js';
import { registerOpeningBalanceRoutes } from './opening-balances.js';
import { addSchemas } from '../../http/hardening.js';
import { centsToDollars, commaList, orNull } from '@ledgerline/platform';
import type { LedgerClient } from '../client.js';
import { transactionFiltersRequest } from '../requests.js';

const TAGS = ['ledger'] as const;
const idParams = { type: 'object', properties: { id: uuid }, required: ['id'] } as const;
const text = { type: 'string', maxLength: 4000 } as const;

interface ListQuery extends TransactionFiltersQuery {
  page?: number;
  take?: number;
}

interface SplitItemBody {
  id?: string;
  amount?: number;
  categoryId?: string;
}
/** Dollars as typed to absolute-or-not cents (more than 2 decimals refused, naming `field.amount`); the ledger checks the sign and the sum. */
const splitItem = (a: Amounts, field: string, it: SplitItemBody | undefined) =>
  it ? { id: it.id, amountCents: a.cents(`${field}.amount`, it.amount), categoryId: it.categoryId } : undefined;

interface UpdateItemBody {
  id?: string;
  categoryId?: string;
  vendorId?: string;
  billerName?: string;
  appliedRuleId?: string;
  isTxnFinalized?: boolean;
}

/**
 * Spec §7 "Categories", "Billers", "Transactions" (list, detail, categorise, bulk update, finalize) and
 * "Ledger", plus GET /ledger/export: each one LedgerService RPC with the caller's tenancy headers.
 */
export async function registerLedgerRoutes(app: FastifyInstance, { ledger }: { ledger: LedgerClient }): Promise<void> {
  addSchemas(app, LEDGER_SCHEMAS);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get(
    '/categories',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listCategories',
        summary: 'Categories transactions can be booked to (levels 3 and 4), with balances',
        response: responses(200, ref(CategoriesResponseSchema)),
      },
    },
    async (req) => ({ categories: (await ledger.listCategories({}, headers(req))).categories.map(categoryJson) }),
  );

  app.get<{ Querystring: { endDate?: string } }>(
    '/categories/chart-of-accounts',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getChartOfAccounts',
        summary: 'The chart of accounts as a tree with balances, and the accounts a category may be placed under',
        querystring: { type: 'object', properties: { endDate: text } },
        response: responses(200, ref(ChartOfAccountsResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.getChartOfAccounts({ endDate: req.query.endDate ?? '' }, headers(req));
      return {
        chartOfAccounts: chartTree(r.chartOfAccounts),
        parentCategories: r.parentCategories.map(categoryJson),
        fiscalYearStartMonth: r.fiscalYearStartMonth || 1,
      };
    },
  );

  app.get(
    '/categories/fiscal-year',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getFiscalYear',
        summary: "The first month of the workspace's fiscal year (1 = January, the default)",
        response: responses(200, ref(FiscalYearSchema)),
      },
    },
    async (req) => ({ fiscalYearStartMonth: (await ledger.getFiscalYear({}, headers(req))).fiscalYearStartMonth }),
  );

  app.patch<{ Body: { fiscalYearStartMonth?: number } }>(
    '/categories/fiscal-year',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'setFiscalYear',
        summary: 'Change the first month of the fiscal year: the year-end close into Retained Earnings moves with it (nothing is posted)',
        body: ref(FiscalYearBodySchema),
        response: responses(200, ref(FiscalYearChangedSchema)),
      },
    },
    async (req) => {
      const r = await ledger.setFiscalYear({ fiscalYearStartMonth: req.body.fiscalYearStartMonth }, headers(req));
      return { fiscalYearStartMonth: r.fiscalYearStartMonth, message: r.message, seq: Number(r.seq) };
    },
  );

  app.post<{ Body: { name?: string; coaId?: number; parentId?: string; group?: string; tag?: string } }>(
    '/categories',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'createCategory',
        summary: 'Add a category under a parent (coaId ≥ 10000)',
        body: ref(CreateCategoryBodySchema),
        response: responses(201, ref(CategoryResponseSchema)),
      },
    },
    async (req, reply) => {
      const b = req.body;
      const r = await ledger.createCategory({ name: b.name, coaId: b.coaId, parentId: b.parentId, group: b.group, tag: b.tag }, headers(req));
      return reply.code(201).send({ message: r.message, category: categoryJson(r.category as Category), seq: Number(r.seq) });
    },
  );

  app.get<{ Querystring: { groupsAndTagsType?: string } }>(
    '/categories/groups-and-tags',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getGroupsAndTags',
        summary: 'The groups and tags used in the chart of accounts',
        querystring: { type: 'object', properties: { groupsAndTagsType: text } },
        response: responses(200, ref(GroupsAndTagsResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.getGroupsAndTags({ groupsAndTagsType: req.query.groupsAndTagsType ?? '' }, headers(req));
      return { groups: r.groups, tags: r.tags };
    },
  );

  app.patch<{ Body: { id?: string; name?: string; coaId?: number; group?: string; tag?: string } }>(
    '/categories/update',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateCategory',
        summary: 'Rename a category or change its coaId, group or tag',
        body: ref(UpdateCategoryBodySchema),
        response: responses(200, ref(CategoryResponseSchema)),
      },
    },
    async (req) => {
      const b = req.body;
      const r = await ledger.updateCategory({ id: b.id, name: b.name, coaId: b.coaId, group: b.group, tag: b.tag }, headers(req));
      return { message: r.message, category: categoryJson(r.category as Category), seq: Number(r.seq) };
    },
  );

  app.patch<{ Body: { categoryId?: string; parentId?: string } }>(
    '/categories/move',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'moveCategory',
        summary: 'Move a category (with its sub-categories) under another parent of its category type',
        body: ref(MoveCategoryBodySchema),
        response: responses(200, ref(CategoryResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.moveCategory({ categoryId: req.body.categoryId, parentId: req.body.parentId }, headers(req));
      return { message: r.message, category: categoryJson(r.category as Category), seq: Number(r.seq) };
    },
  );

  app.delete<{ Body: { categoryIds?: string[] } | undefined; Querystring: { categoryIds?: string } }>(
    '/categories/delete',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'deleteCategories',
        summary: 'Remove categories nothing is booked to (ids in the body, or comma-separated in the query)',
        querystring: { type: 'object', properties: { categoryIds: text } },
        body: ref(DeleteCategoriesBodySchema),
        response: responses(200, ref(ChartChangedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.deleteCategories({ categoryIds: req.body?.categoryIds ?? commaList(req.query.categoryIds) }, headers(req));
      return { message: r.message, seq: Number(r.seq) };
    },
  );

  app.get<{ Querystring: ListQuery }>(
    '/transactions/v2',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listTransactions',
        summary: 'Workspace transactions with the spec §7 filters (comma-separated ids; amounts in dollars, absolute)',
        querystring: TRANSACTION_LIST_QUERY,
        response: responses(200, ref(TransactionsPageSchema)),
      },
    },
    async (req) => {
      const r = await ledger.listTransactions({ ...transactionFiltersRequest(req.query), page: req.query.page, take: req.query.take }, headers(req));
      return { data: r.data.map(transactionJson), meta: r.meta };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { fetchBankAccountTransaction?: boolean } }>(
    '/transactions/v2/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getTransaction',
        summary: 'One workspace transaction; with fetchBankAccountTransaction=true also the bank transaction it books',
        params: idParams,
        querystring: { type: 'object', properties: { ledgerTransactionId: text, fetchBankAccountTransaction: { type: 'boolean' }, isGeneralLedger: text } },
        response: responses(200, ref(TransactionSchema)),
      },
    },
    async (req) => {
      const fetchBankAccountTransaction = req.query.fetchBankAccountTransaction === true;
      const r = await ledger.getTransaction({ id: req.params.id, fetchBankAccountTransaction }, headers(req));
      return {
        ...transactionJson(r.transaction),
        ...(fetchBankAccountTransaction ? { bankAccountTransaction: bankTransactionJson(r.bankAccountTransaction) } : {}),
      };
    },
  );

  app.patch<{ Params: { id: string }; Body: { categoryId?: string } }>(
    '/transactions/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateTransaction',
        summary: 'Categorise a transaction (a reversal and a new entry)',
        params: idParams,
        body: ref(CategoryIdBodySchema),
        response: responses(200, ref(TransactionUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.updateTransaction({ id: req.params.id, categoryId: req.body.categoryId }, headers(req));
      return { message: r.message, transaction: transactionJson(r.transaction), seq: Number(r.seq) };
    },
  );

  app.patch<{ Body: { transactions?: UpdateItemBody[] } }>(
    '/transactions',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'bulkUpdateTransactions',
        summary: 'Update several transactions at once (all or none)',
        body: ref(BulkUpdateBodySchema),
        response: responses(200, ref(TransactionsUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.bulkUpdateTransactions({ transactions: req.body.transactions ?? [] }, headers(req));
      return { message: r.message, transactions: r.transactions.map(transactionJson), seq: Number(r.seq) };
    },
  );

  app.post<{ Body: { transactionIds?: string[]; isTxnFinalized?: boolean } }>(
    '/transactions/finalize',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'finalizeTransactions',
        summary: 'Finalize or un-finalize transactions',
        body: ref(FinalizeBodySchema),
        response: responses(200, ref(TransactionsUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.finalizeTransactions({ transactionIds: req.body.transactionIds ?? [], isTxnFinalized: req.body.isTxnFinalized }, headers(req));
      return { message: r.message, transactions: r.transactions.map(transactionJson), seq: Number(r.seq) };
    },
  );

  app.post<{ Body: { parentTransaction?: SplitItemBody; splitTransactions?: SplitItemBody[] } }>(
    '/transactions/split',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'splitTransaction',
        summary: 'Split a transaction into parts with their own categories',
        body: ref(SplitBodySchema),
        response: responses(200, ref(TransactionUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const body = withAmounts((a) => ({
        parentTransaction: splitItem(a, 'parentTransaction', req.body.parentTransaction),
        splitTransactions: (req.body.splitTransactions ?? []).map((x, i) => splitItem(a, `splitTransactions.${i}`, x) ?? {}),
      }));
      const r = await ledger.splitTransaction(body, headers(req));
      return { message: r.message, transaction: transactionJson(r.transaction), seq: Number(r.seq) };
    },
  );

  app.post<{
    Body: { parentTransaction?: SplitItemBody; updateTransactions?: SplitItemBody[]; splitTransactions?: SplitItemBody[]; deleteTransactionIds?: string[] };
  }>(
    '/transactions/update-split',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateSplit',
        summary: "Change a split transaction's parts",
        body: ref(UpdateSplitBodySchema),
        response: responses(200, ref(TransactionUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const b = req.body;
      const body = withAmounts((a) => ({
        parentTransaction: splitItem(a, 'parentTransaction', b.parentTransaction),
        updateTransactions: (b.updateTransactions ?? []).map((x, i) => splitItem(a, `updateTransactions.${i}`, x) ?? {}),
        splitTransactions: (b.splitTransactions ?? []).map((x, i) => splitItem(a, `splitTransactions.${i}`, x) ?? {}),
        deleteTransactionIds: b.deleteTransactionIds ?? [],
      }));
      const r = await ledger.updateSplit(body, headers(req));
      return { message: r.message, transaction: transactionJson(r.transaction), seq: Number(r.seq) };
    },
  );

  app.get<{ Querystring: { transactionId?: string } }>(
    '/transactions/transfer-candidates',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listTransferCandidates',
        summary: "A transaction's possible transfer counterparts in the workspace's other linked accounts, best first",
        querystring: { type: 'object', properties: { transactionId: text } },
        response: responses(200, ref(TransferCandidatesResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.listTransferCandidates({ transactionId: req.query.transactionId ?? '' }, headers(req));
      return {
        data: r.data.map((c) => ({
          id: c.id,
          amount: centsToDollars(c.amountCents),
          dateTime: c.date,
          accountId: c.accountId,
          accountName: c.accountName,
          name: c.name,
          score: c.score,
        })),
      };
    },
  );

  app.post<{ Body: { transactionId?: string; counterpartTransactionId?: string } }>(
    '/transactions/pair-transfer',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'pairTransfer',
        summary: 'Pair two transactions as the two sides of one transfer (both booked to a Transfer account)',
        body: ref(PairTransferBodySchema),
        response: responses(200, ref(TransactionsUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.pairTransfer(
        { transactionId: req.body.transactionId ?? '', counterpartTransactionId: req.body.counterpartTransactionId ?? '' },
        headers(req),
      );
      return { message: r.message, transactions: r.transactions.map(transactionJson), seq: Number(r.seq) };
    },
  );

  app.post<{ Body: { transactionId?: string } }>(
    '/transactions/unpair-transfer',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'unpairTransfer',
        summary: 'Undo a transfer: both sides back to what a fresh import books; the pair is never detected again',
        body: ref(UnpairTransferBodySchema),
        response: responses(200, ref(TransactionsUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.unpairTransfer({ transactionId: req.body.transactionId ?? '' }, headers(req));
      return { message: r.message, transactions: r.transactions.map(transactionJson), seq: Number(r.seq) };
    },
  );

  app.get<{ Querystring: { transactionId?: string; page?: number; take?: number } }>(
    '/transactions/audit-logs',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listTransactionAuditLogs',
        summary: 'Who changed what on transactions, newest first',
        querystring: { type: 'object', properties: { transactionId: text, page: { type: 'integer' }, take: { type: 'integer' } } },
        response: responses(200, ref(AuditLogsResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.listAuditLogs({ transactionId: req.query.transactionId ?? '', page: req.query.page, take: req.query.take }, headers(req));
      return {
        data: r.data.map((a) => ({
          id: a.id,
          transactionId: a.transactionId,
          userId: orNull(a.userId),
          event: a.event,
          details: JSON.parse(a.detailsJson) as Record<string, unknown>,
          createdAt: a.createdAt,
        })),
        meta: r.meta,
      };
    },
  );

  app.get(
    '/billers',
    {
      config: READ,
      schema: { ...common, operationId: 'listBillers', summary: 'Billers (merchants) of the workspace', response: responses(200, ref(BillersResponseSchema)) },
    },
    async (req) => ({ billers: (await ledger.listBillers({}, headers(req))).billers.map(billerJson) }),
  );

  app.patch<{ Params: { id: string }; Body: { categoryId?: string } }>(
    '/billers/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'updateBiller',
        summary: "Set a biller's category; applied to its open transactions",
        params: idParams,
        body: ref(CategoryIdBodySchema),
        response: responses(200, ref(BillerUpdatedResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.updateBiller({ id: req.params.id, categoryId: req.body.categoryId }, headers(req));
      return { message: r.message, biller: billerJson(r.biller as Biller), updatedTransactions: r.updatedTransactions, seq: Number(r.seq) };
    },
  );

  app.get<{ Querystring: { startDate?: string; endDate?: string } }>(
    '/ledger/get-general-ledger',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getGeneralLedger',
        summary: 'Every account with opening balance, debits, credits and closing balance of the period',
        querystring: { type: 'object', properties: { startDate: text, endDate: text } },
        response: responses(200, ref(GeneralLedgerResponseSchema)),
      },
    },
    async (req) => {
      const r = await ledger.getGeneralLedger({ startDate: req.query.startDate ?? '', endDate: req.query.endDate ?? '' }, headers(req));
      return {
        data: r.data.map((a) => ({
          ledgerAccountId: a.ledgerAccountId,
          name: a.name,
          coaId: a.coaId,
          type: a.type,
          openingBalance: centsToDollars(a.openingBalanceCents),
          debit: centsToDollars(a.debitCents),
          credit: centsToDollars(a.creditCents),
          closingBalance: centsToDollars(a.closingBalanceCents),
          yearEndClose: centsToDollars(a.yearEndCloseCents),
        })),
      };
    },
  );

  app.get<{
    Querystring: { ledgerAccountId?: string; fetchBankAccountTransaction?: boolean; startDate?: string; endDate?: string; page?: number; take?: number };
  }>(
    '/ledger/get-ledger-transactions',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getLedgerTransactions',
        summary: "One account's lines with running balances; page 1 starts with the opening balance",
        querystring: {
          type: 'object',
          properties: {
            ledgerAccountId: text,
            fetchBankAccountTransaction: { type: 'boolean' },
            startDate: text,
            endDate: text,
            page: { type: 'integer' },
            take: { type: 'integer' },
          },
        },
        response: responses(200, ref(LedgerTransactionsResponseSchema)),
      },
    },
    async (req) => {
      const q = req.query;
      const fetchBank = q.fetchBankAccountTransaction === true;
      const r = await ledger.getLedgerTransactions(
        {
          ledgerAccountId: q.ledgerAccountId ?? '',
          fetchBankAccountTransaction: fetchBank,
          startDate: q.startDate ?? '',
          endDate: q.endDate ?? '',
          page: q.page,
          take: q.take,
        },
        headers(req),
      );
      return {
        data: r.data.map((l) => ({
          id: orNull(l.id),
          dateTime: orNull(l.date),
          description: l.description,
          journalEntryId: orNull(l.journalEntryId),
          transactionId: orNull(l.transactionId),
          debit: centsToDollars(l.debitCents),
          credit: centsToDollars(l.creditCents),
          ledgerAmount: centsToDollars(l.ledgerAmountCents),
          ledgerRunningBalance: centsToDollars(l.ledgerRunningBalanceCents),
          isOpeningBalance: l.isOpeningBalance,
          isYearEndClose: l.isYearEndClose,
          sourceType: l.sourceType,
          counterAccount: l.counterAccount,
          ...(fetchBank ? { bankAccountTransaction: bankTransactionJson(l.bankTransaction) } : {}),
        })),
        meta: r.meta,
        openingBalance: centsToDollars(r.openingBalanceCents),
      };
    },
  );

  app.get<{ Querystring: { format?: string } }>(
    '/ledger/export',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'exportLedger',
        summary: 'The books as a plain-text journal (hledger or beancount)',
        querystring: { type: 'object', properties: { format: text } },
        response: { 200: { type: 'string', description: 'The journal file (text/plain, as an attachment).' } },
      },
    },
    async (req, reply) => {
      const r = await ledger.exportLedger({ format: req.query.format ?? '' }, headers(req));
      return reply.type(r.contentType).header('content-disposition', `attachment; filename="${r.fileName}"`).send(r.content);
    },
  );

  await registerOpeningBalanceRoutes(app, { ledger });
  await registerAccrualRoutes(app, { ledger });
}
