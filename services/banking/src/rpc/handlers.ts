import { create } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import { BankAccountSchema, BankingService, BankTransactionRecordSchema, JobSchema, type BankAccount, type Job } from '@ledgerline/proto/banking/v1/banking_pb';
import type { AccountView } from '../usecases/accounts.js';
import type { AccountUseCases } from '../usecases/accounts.js';
import type { Actor } from '../usecases/context.js';
import type { JobScheduler } from '../usecases/jobs.js';
import type { WebhookUseCases } from '../usecases/webhooks.js';
import type { JobRow, TransactionRow } from '../store/rows.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');
const cents = (v: number | null) => (v === null || v === undefined ? undefined : BigInt(v));

export function accountMessage(a: AccountView): BankAccount {
  return create(BankAccountSchema, {
    id: a.id,
    name: a.name,
    institutionName: a.institution_name,
    institutionId: a.institution_id,
    institutionLogo: a.institution_logo,
    workspaceId: a.workspace_id,
    mask: a.mask,
    vendorAccountId: a.vendor_account_id,
    type: a.type,
    subtype: a.subtype,
    active: a.active,
    reconnectRequired: a.reconnect_required,
    availableBalanceCents: cents(a.available_balance_cents),
    currentBalanceCents: cents(a.current_balance_cents),
    isoCurrencyCode: a.iso_currency_code,
    lastSyncedAt: iso(a.last_synced_at),
    dateStartAt: a.date_start_at,
    dateEndAt: a.date_end_at,
    createdOn: iso(a.created_at),
    source: a.source,
  });
}

export function jobMessage(j: JobRow): Job {
  return create(JobSchema, {
    id: j.id,
    status: j.status,
    type: j.type,
    order: BigInt(j.seq),
    data: {
      requestId: j.request_id,
      accountId: j.account_id,
      transactionPushed: j.transaction_pushed,
      totalTransactions: j.total_transactions,
      uploadType: '',
    },
    failedReason: j.status === 'failed' ? (j.failed_reason ?? '') : '',
    attempts: j.attempts,
    createdOn: iso(j.created_at),
    finishedOn: iso(j.finished_at),
  });
}

function transactionMessage(t: TransactionRow) {
  return create(BankTransactionRecordSchema, {
    id: t.id,
    accountId: t.account_id,
    externalId: t.external_id,
    amountCents: BigInt(t.amount_cents),
    isoCurrencyCode: t.iso_currency_code,
    date: t.date,
    authorizedDate: t.authorized_date ?? '',
    name: t.name,
    merchantName: t.merchant_name,
    pending: t.pending,
    providerCategory: t.provider_category,
    version: BigInt(t.version),
  });
}

const actorOf = (ctx: HandlerContext): Actor => {
  const t = requireTenant(ctx);
  return { workspaceId: t.workspaceId, userId: t.userId };
};

/** Thin edge: map the message, call one use case, map the answer. */
export function bankingRoutes(deps: { accounts: AccountUseCases; scheduler: JobScheduler; webhooks: WebhookUseCases }) {
  const { accounts, scheduler, webhooks } = deps;
  return (router: ConnectRouter) =>
    router.service(
      BankingService,
      withInputRules(BankingService, {
        async createLinkToken(_req, ctx) {
          return accounts.createLinkToken(actorOf(ctx));
        },
        async createUpdateToken(req, ctx) {
          return accounts.createUpdateToken(actorOf(ctx), req.accountId);
        },
        async linkAccounts(req, ctx) {
          const r = await accounts.link(actorOf(ctx), {
            publicToken: req.publicToken,
            accounts: req.accounts.map((a) => ({ id: a.id, name: a.name, mask: a.mask, type: a.type, subtype: a.subtype })),
            institution: req.institution ? { name: req.institution.name, institutionId: req.institution.institutionId } : undefined,
            ignoreDuplicateAccounts: req.ignoreDuplicateAccounts,
          });
          return {
            accounts: r.accounts.map(accountMessage),
            resultCode: r.resultCode,
            matchingAccounts: r.matchingAccounts.map(accountMessage),
            jobs: r.jobs.map(jobMessage),
          };
        },
        async listAccounts(_req, ctx) {
          return { accounts: (await accounts.list(actorOf(ctx))).map(accountMessage) };
        },
        async removeAccount(req, ctx) {
          return accounts.remove(actorOf(ctx), req.accountId);
        },
        async checkAnomaly(req, ctx) {
          const r = await accounts.checkAnomaly(actorOf(ctx), req.accountId);
          return {
            resultCode: r.resultCode,
            matches: r.matches.map((m) => ({
              account: accountMessage(m.account),
              matchingAccount: accountMessage(m.matchingAccount),
              overlappingTransactions: m.overlapping,
              matchedTransactions: m.matched,
              matchPercentage: m.matchPercentage,
              matched: m.pairs.map((p) => ({
                sourceTransactionId: p.source.id,
                targetTransactionId: p.target.id,
                date: p.source.date,
                amountCents: BigInt(p.source.amountCents),
              })),
            })),
          };
        },
        async syncTransactions(req, ctx) {
          const job = await accounts.syncNow(actorOf(ctx), req.accountId);
          return { message: 'Syncing all your latest transactions', job: jobMessage(job) };
        },
        async mergeAccounts(req, ctx) {
          const r = await accounts.merge(actorOf(ctx), {
            sourceAccountId: req.sourceAccountId,
            targetAccountId: req.targetAccountId,
            conflicts: req.conflicts.map((c) => ({
              sourceTransactionId: c.sourceTransactionId,
              targetTransactionId: c.targetTransactionId,
              resolution: c.resolution,
            })),
            keepTargetsNonMatchedTransactions: req.keepTargetsNonMatchedTransactions,
            mergeStrategy: req.mergeStrategy,
          });
          return {
            message: 'Accounts merged',
            targetAccount: accountMessage(r.target),
            movedTransactions: r.moved,
            droppedTransactions: r.dropped,
            removedTargetTransactions: r.removedTarget,
          };
        },
        async listJobs(req, ctx) {
          const rows = await scheduler.list(actorOf(ctx).workspaceId, { accountId: req.accountId, statuses: req.statuses });
          return { jobs: rows.map(jobMessage) };
        },
        async listBankTransactions(req, ctx) {
          const r = await accounts.listTransactions(actorOf(ctx), { accountId: req.accountId, page: req.page, take: req.take });
          return { transactions: r.rows.map(transactionMessage), total: r.total, page: r.page, take: r.take };
        },
        async handlePlaidWebhook(req) {
          return { outcome: await webhooks.handle(req.body, req.verification) };
        },
      }),
    );
}
