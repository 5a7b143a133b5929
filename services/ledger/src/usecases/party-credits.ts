import { AppError, ErrorKind, newId, type Knex, assertCanEdit } from '@ledgerline/platform';
import type { ClassGroup } from '../domain/chart.js';
import { PARTY_ACCOUNTS, PARTY_CREDIT_MSG, PARTY_CREDIT_SOURCE_TYPES, partyCreditLines, type PartyCreditSourceType } from '../domain/party-credits.js';
import { checkSourcedLines, lineCategoryProblems, type SourcedLine } from '../domain/sourced-lines.js';
import { bodyHash, checkPostingRequest } from '../domain/source-posting.js';
import {
  accountsByIds,
  classAndFirstGroup,
  coaIdTaken,
  findAccountBySystemKey,
  insertAccount,
  nextCoaId,
  writeChartChanged,
  type AccountRow,
} from '../store/chart-store.js';
import { lockLedgerWorkspace, setSystemKey, unkeyedDefaultAccount } from '../store/party-credits-store.js';
import { applyVersion, findSource, type PostingOutcome } from '../store/postings.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';

export interface PartyCreditInput {
  sourceType: string;
  sourceId: string;
  version: bigint | number;
  date: string;
  description: string;
  lines: { categoryId: string; amountCents: bigint | number }[];
}

export interface PartyCreditOutcome extends PostingOutcome {
  partyAccountId: string;
}

/**
 * Accounts Payable (vendor credits) or Accounts Receivable (credit memos) of the workspace: the account holding the
 * system key; else the default chart's account (same coaId, name and class, no key yet), which gets the key; else a
 * new level-3 account of that name under the class's first group (Current Liabilities / Current Assets), keyed,
 * announced by `chart.changed` (created). The workspace row is locked first so two first credits make one account.
 */
export async function partyAccount(trx: Knex.Transaction, workspaceId: string, type: PartyCreditSourceType): Promise<AccountRow> {
  return keyedAccount(trx, workspaceId, PARTY_ACCOUNTS[type]);
}

/** An account the ledger keeps by system key (Accounts Payable, Accumulated Depreciation…): what `keyedAccount` needs of it. */
export interface KeyedAccountSpec {
  systemKey: string;
  name: string;
  coaId: number;
  classGroup: ClassGroup;
}

/** The account of `spec.systemKey`, found, keyed from the default chart, or created (see `partyAccount`). */
export async function keyedAccount(trx: Knex.Transaction, workspaceId: string, spec: KeyedAccountSpec): Promise<AccountRow> {
  const keyed = await findAccountBySystemKey(trx, spec.systemKey);
  if (keyed) return keyed;
  await lockLedgerWorkspace(trx, workspaceId);
  const again = await findAccountBySystemKey(trx, spec.systemKey);
  if (again) return again;
  const byDefault = await unkeyedDefaultAccount(trx, spec);
  if (byDefault) {
    await setSystemKey(trx, byDefault.id, spec.systemKey);
    return { ...byDefault, system_key: spec.systemKey };
  }
  const { cls, group } = await classAndFirstGroup(trx, spec.classGroup);
  const parent = group ?? cls;
  if (!parent) throw new Error(`the chart of workspace ${workspaceId} has no ${spec.classGroup} class`);
  const row: AccountRow = {
    id: newId(),
    workspace_id: workspaceId,
    name: spec.name,
    coa_id: (await coaIdTaken(trx, spec.coaId)) ? await nextCoaId(trx, parent) : spec.coaId,
    class_group: parent.class_group,
    level: parent.level + 1,
    parent_id: parent.id,
    group_name: parent.level === 1 ? parent.name : parent.group_name,
    tag: '',
    is_user_created: false,
    system_key: spec.systemKey,
    bank_account_id: null,
    qbo_synced: false,
  };
  await insertAccount(trx, row);
  await writeChartChanged(trx, workspaceId, 'created', [row.id]);
  return row;
}

/**
 * Every line's category is of the workspace (else 404 naming it), postable, and not the party account itself (when the
 * document is booked against one): the one check of vendor credits, credit memos, bills, invoices and manual journals.
 */
export async function checkCategories(trx: Knex.Transaction, lines: readonly SourcedLine[], party: AccountRow | undefined): Promise<void> {
  const found = new Map((await accountsByIds(trx, [...new Set(lines.map((l) => l.categoryId))])).map((a) => [a.id, a]));
  const { notFound, problems } = lineCategoryProblems(lines, found, party);
  if (notFound) throw new AppError(ErrorKind.NotFound, notFound.message, { fields: [notFound] });
  if (problems.length > 0) throw AppError.invalid(problems);
}

/** A dry run's way out of its transaction: everything was checked, nothing may stay. */
class DryRunDone extends Error {
  constructor(readonly partyAccountId: string) {
    super('dry run');
  }
}

/** PostPartyCredit: one version of a vendor credit's or credit memo's entry (services/ledger/README.md, "Vendor credits and credit memos"). */
export class PartyCreditUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  async post(tenant: Tenant, input: PartyCreditInput & { dryRun?: boolean }): Promise<PartyCreditOutcome> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const type = checkInput(input);
    try {
      return await inWorkspace(this.deps.db, tenant, async (trx) => {
        const outcome = await postIn(trx, tenant.workspaceId, type, input, input.dryRun === true);
        // The check's own writes (a first Accounts Payable account) roll back with it.
        if (input.dryRun) throw new DryRunDone(outcome.partyAccountId);
        return outcome;
      });
    } catch (err) {
      if (err instanceof DryRunDone) return checked(Number(input.version), err.partyAccountId);
      throw err;
    }
  }
}

/** A dry run's answer: nothing posted. */
const checked = (version: number, partyAccountId: string): PartyCreditOutcome => ({
  entryId: null,
  seq: 0,
  reversedEntryId: null,
  reversalEntryId: null,
  replayed: false,
  version,
  partyAccountId,
});

/** The request's own checks (before any database work): the source type and each category id's form. */
function checkInput(input: PartyCreditInput): PartyCreditSourceType {
  const { type, problems } = checkSourcedLines(input, PARTY_CREDIT_SOURCE_TYPES, PARTY_CREDIT_MSG.sourceType);
  if (!type || problems.length > 0) throw AppError.invalid(problems);
  return type;
}

/** One version, in the caller's transaction (the RPC's, or the posting.requested consumer's with its inbox row). */
async function postIn(
  trx: Knex.Transaction,
  workspaceId: string,
  type: PartyCreditSourceType,
  input: PartyCreditInput,
  dryRun: boolean,
): Promise<PartyCreditOutcome> {
  const isVoid = input.lines.length === 0;
  const party = await partyAccount(trx, workspaceId, type);
  const lines = input.lines.map((l) => ({ categoryId: l.categoryId, amountCents: Number(l.amountCents) }));
  if (!isVoid) await checkCategories(trx, lines, party);
  const { request, problems } = checkPostingRequest({
    sourceType: type,
    sourceId: input.sourceId,
    version: input.version,
    date: isVoid ? undefined : input.date,
    description: input.description,
    lines: partyCreditLines(type, party.id, lines),
  });
  if (!request) throw AppError.invalid(problems);
  if (dryRun) return checked(Number(input.version), party.id);
  const outcome = await applyVersion(trx, { ...request, workspaceId, bodyHash: bodyHash(request) });
  return { ...outcome, partyAccountId: party.id };
}

/**
 * posting.requested of a credit (decision 0012), in the consumer's transaction: the version is booked unless the
 * ledger already holds it or a newer one (the owner's own call got there first), so a redelivery or the race with
 * that call changes nothing.
 */
export async function applyRequestedCredit(trx: Knex.Transaction, workspaceId: string, input: PartyCreditInput): Promise<'applied' | 'already'> {
  const type = checkInput(input);
  const source = await findSource(trx, type, input.sourceId);
  if (source && source.current_version >= Number(input.version)) return 'already';
  await postIn(trx, workspaceId, type, input, false);
  return 'applied';
}
