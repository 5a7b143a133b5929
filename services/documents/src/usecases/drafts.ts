import { Code, ConnectError } from '@connectrpc/connect';
import {
  AppError,
  errorInfoOf,
  ErrorKind,
  isUuid,
  newId,
  pageMeta,
  paging,
  withSystem,
  withTenant,
  type Knex,
  type Logger,
  assertCanEdit,
} from '@ledgerline/platform';
import { DOC_MSG, type FieldProblem } from '../domain/documents.js';
import {
  cleanDraftIds,
  conversionMessage,
  DEFAULT_DRAFT_TYPE,
  DRAFT_MSG,
  draftDocumentInput,
  draftRecurrence,
  firstDraftProblem,
  isDraftEntity,
  isDraftType,
  parseMetaData,
  parsePublishedAt,
  type DraftEntity,
} from '../domain/drafts.js';
import { occurrenceDate } from '../domain/recurrence.js';
import {
  bulkUploadKnown,
  uploadOfAnotherWorkspace,
  consumeDraft,
  draftsByIds,
  insertDraft,
  listOpenDrafts,
  markDraftsDeleted,
  openDraftIdsOfBulkUpload,
  updateDraft,
  type DraftRow,
} from '../store/drafts.js';
import { saveRecurrence } from '../store/recurrence.js';
import type { DocumentsUseCases, Tenant } from './index.js';
import type { DocumentLedger } from '../clients/ledger.js';
import type { PartyLookup } from '../clients/parties.js';

export interface DraftsDeps {
  db: Knex;
  logger: Logger;
  /** The bills' and invoices' use cases: a conversion is their `create`, nothing else. */
  documents: DocumentsUseCases;
  /** The references a draft may hold are checked as the workspace's: its vendor / customer, its lines' categories. */
  parties: PartyLookup;
  ledger: DocumentLedger;
  /** Wakes the recurrence scheduler (a converted draft may recur). */
  wake?: () => void;
}

export interface DraftView {
  row: DraftRow;
  /** What conversion would refuse now (the document's and the recurrence's rules), or undefined. */
  firstError?: FieldProblem;
}

export interface DraftResult {
  draftId: string;
  documentId: string;
  error?: FieldProblem;
}

export interface DraftBatch {
  createdCount: number;
  failedCount: number;
  success: boolean;
  deletedCount: number;
  message: string;
  results: DraftResult[];
}

function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length > 0) throw AppError.invalid(problems);
}
const notFound = (field: string, message: string = DRAFT_MSG.notFound) => new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
const isOpen = (r: DraftRow) => r.deleted_at === null && r.document_id === null;
const viewOf = (row: DraftRow): DraftView => ({ row, firstError: firstDraftProblem(row.entity_type, row.meta_data) });

/** What the ledger answers about the document itself (its fields), as opposed to being unreachable. */
const REFUSALS = new Set([Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition, Code.AlreadyExists]);

/** Raised inside a conversion's transaction when the draft was consumed meanwhile: the document rolls back. */
class DraftTaken extends Error {}

/**
 * Drafts (services/documents/README.md, decision "drafts"). A draft posts nothing. Converting drafts runs each one, in
 * order, through the bills' / invoices' own `create` (the rules, the parties check, the ledger's check and booking of
 * POST /accounting/bill/v2), with a hook that consumes the draft in the document's transaction: the document and the
 * draft's consumption commit together or not at all, so a crash, a retried request or a concurrent one never makes two
 * documents of one draft (the second finds the draft consumed and answers the document the first made).
 */
export function createDraftUseCases({ db, documents, parties, ledger, wake }: DraftsDeps) {
  /**
   * Another workspace's id is a 404 also inside a draft (naming metaData.vendorId, metaData.lineItems.N.categoryId): a
   * draft holds only the workspace's own references. Text that is not a UUID yet (read from a file) stays, the draft's
   * first error until it is fixed.
   */
  async function assertOwnReferences(tenant: Tenant, meta: Record<string, unknown>, bulkUploadId = ''): Promise<void> {
    const uuidAt = (v: unknown) => (typeof v === 'string' && isUuid(v.trim()) ? v.trim().toLowerCase() : undefined);
    const vendorId = uuidAt(meta.vendorId);
    if (vendorId && !(await parties.vendor(tenant, vendorId))) throw notFound('metaData.vendorId', 'Vendor not found');
    const customerId = uuidAt(meta.customerId);
    if (customerId && !(await parties.customer(tenant, customerId))) throw notFound('metaData.customerId', 'Customer not found');
    const uploadId = uuidAt(meta.uploadId);
    const bulk = uuidAt(bulkUploadId);
    if (uploadId || bulk) {
      const taken = await withSystem(db, (trx) => uploadOfAnotherWorkspace(trx, tenant.workspaceId, { bulkUploadId: bulk, uploadId }));
      if (taken === 'bulkUploadId') throw notFound('bulkUploadId', DRAFT_MSG.bulkUploadNotFound);
      if (taken === 'uploadId') throw notFound('metaData.uploadId', DRAFT_MSG.uploadNotFound);
    }
    const lines = Array.isArray(meta.lineItems) ? (meta.lineItems as unknown[]) : [];
    const categories = lines
      .map((l, i) => ({ i, id: l !== null && typeof l === 'object' ? (l as Record<string, unknown>).categoryId : undefined }))
      .filter((c): c is { i: number; id: string } => typeof c.id === 'string' && isUuid(c.id.trim()));
    if (categories.length > 0) {
      const own = await ledger.accountIds(tenant);
      const foreign = categories.find((c) => !own.has(c.id.trim().toLowerCase()));
      if (foreign) throw notFound(`metaData.lineItems.${foreign.i}.categoryId`, DOC_MSG.categoryNotFound);
    }
  }

  /** The workspace's drafts among these ids, open or not; any other id (another workspace's, unknown, deleted) is a 404 naming draftIds. */
  async function ownDrafts(tenant: Tenant, ids: readonly string[]): Promise<Map<string, DraftRow>> {
    const rows = await withTenant(db, tenant, (trx) => draftsByIds(trx, ids));
    if (
      ids.some((id) => {
        const r = rows.get(id);
        return !r || r.deleted_at !== null;
      })
    )
      throw notFound('draftIds');
    return rows;
  }

  async function convertOne(tenant: Tenant, entity: DraftEntity, row: DraftRow): Promise<DraftResult> {
    const draftId = row.id;
    if (row.document_id) return { draftId, documentId: row.document_id };
    if (row.entity_type !== entity) return { draftId, documentId: '', error: { field: 'entityType', message: DRAFT_MSG.otherEntity(row.entity_type, entity) } };
    const problem = firstDraftProblem(entity, row.meta_data);
    if (problem) return { draftId, documentId: '', error: problem };
    const recurrence = draftRecurrence(row.meta_data).value;
    try {
      const answer = await documents.create(tenant, entity, draftDocumentInput(entity, row.meta_data), {
        within: async (trx, documentId) => {
          if (!(await consumeDraft(trx, draftId, documentId, tenant.userId ?? ''))) throw new DraftTaken();
          if (recurrence) {
            await saveRecurrence(trx, {
              documentId,
              workspaceId: tenant.workspaceId,
              kind: entity,
              schedule: recurrence.schedule,
              endType: recurrence.endType,
              activity: recurrence.activity,
              notBefore: null,
              nextDate: occurrenceDate(recurrence.schedule, 0) ?? null,
              createdBy: tenant.userId ?? null,
            });
          }
        },
      });
      if (recurrence?.activity === 'Active') wake?.();
      return { draftId, documentId: answer.document.row.id };
    } catch (err) {
      if (err instanceof DraftTaken) {
        // Another call converted (or deleted) it first: answer what that one did.
        const now = (await withTenant(db, tenant, (trx) => draftsByIds(trx, [draftId]))).get(draftId);
        if (now?.document_id) return { draftId, documentId: now.document_id };
        return { draftId, documentId: '', error: { field: 'draftIds', message: DRAFT_MSG.notFound } };
      }
      // The bill's / invoice's refusal (its field: vendorId not found, a category of another workspace...) is this draft's error.
      if (err instanceof AppError && err.kind !== ErrorKind.PermissionDenied && err.kind !== ErrorKind.Unavailable) {
        const first = err.fields[0] ?? { field: 'draftIds', message: err.message };
        return { draftId, documentId: '', error: first };
      }
      // The ledger's refusal, passed on as it answered (e.g. 404 naming lineItems.0.categoryId).
      if (err instanceof ConnectError && REFUSALS.has(err.code)) {
        const first = errorInfoOf(err)?.fields[0] ?? { field: 'draftIds', message: err.rawMessage };
        return { draftId, documentId: '', error: first };
      }
      throw err;
    }
  }

  return {
    async create(
      tenant: Tenant,
      input: { entityType: string; draftType: string; publishedAt: string; metaDataJson: string; bulkUploadId: string },
    ): Promise<DraftView> {
      assertCanEdit(tenant);
      const problems: FieldProblem[] = [];
      const entity = input.entityType.trim();
      if (entity === '') problems.push({ field: 'entityType', message: DRAFT_MSG.entityTypeRequired });
      else if (!isDraftEntity(entity)) problems.push({ field: 'entityType', message: DRAFT_MSG.entityType });
      const draftType = input.draftType.trim() === '' ? DEFAULT_DRAFT_TYPE : input.draftType.trim();
      if (!isDraftType(draftType)) problems.push({ field: 'draftType', message: DRAFT_MSG.draftType });
      const publishedAt = parsePublishedAt(input.publishedAt, new Date());
      if (!publishedAt) problems.push({ field: 'publishedAt', message: DRAFT_MSG.publishedAt });
      const meta = parseMetaData(input.metaDataJson);
      if (meta.problem) problems.push(meta.problem);
      const bulkUploadId = input.bulkUploadId.trim().toLowerCase();
      if (bulkUploadId !== '' && !isUuid(bulkUploadId)) problems.push({ field: 'bulkUploadId', message: DOC_MSG.uuid('bulkUploadId') });
      // Another workspace's id is a 404 whatever else the body holds; then the fields' refusals.
      await assertOwnReferences(tenant, meta.value ?? {}, bulkUploadId);
      throwIfAny(problems);
      const row = await withTenant(db, tenant, (trx) =>
        insertDraft(trx, {
          id: newId(),
          workspace_id: tenant.workspaceId,
          entity_type: entity as DraftEntity,
          draft_type: draftType,
          meta_data: meta.value ?? {},
          bulk_upload_id: bulkUploadId || null,
          published_at: publishedAt as Date,
          created_by: tenant.userId ?? '',
          last_modified_by: tenant.userId ?? '',
        }),
      );
      return viewOf(row);
    },

    /** GET /drafts: the open drafts, oldest first, 20 a page by default. */
    async list(tenant: Tenant, q: { entityType: string; draftType: string; bulkUploadId: string; page: number; take: number }) {
      const problems: FieldProblem[] = [];
      const page = q.page === 0 ? 1 : q.page;
      const take = q.take === 0 ? 20 : q.take;
      if (!Number.isInteger(page) || page < 1) problems.push({ field: 'page', message: DOC_MSG.page });
      if (!Number.isInteger(take) || take < 1 || take > 100) problems.push({ field: 'take', message: DOC_MSG.take });
      if (q.entityType !== '' && !isDraftEntity(q.entityType)) problems.push({ field: 'entityType', message: DRAFT_MSG.entityType });
      if (q.draftType !== '' && !isDraftType(q.draftType)) problems.push({ field: 'draftType', message: DRAFT_MSG.draftType });
      if (q.bulkUploadId !== '' && !isUuid(q.bulkUploadId)) problems.push({ field: 'bulkUploadId', message: DOC_MSG.uuid('bulkUploadId') });
      throwIfAny(problems);
      const p = paging(page, take);
      return withTenant(db, tenant, async (trx) => {
        if (q.bulkUploadId !== '' && !(await bulkUploadKnown(trx, q.bulkUploadId.toLowerCase()))) throw notFound('bulkUploadId', DRAFT_MSG.bulkUploadNotFound);
        const { rows, count } = await listOpenDrafts(trx, {
          entityType: q.entityType,
          draftType: q.draftType,
          bulkUploadId: q.bulkUploadId.toLowerCase(),
          offset: p.offset,
          limit: p.take,
        });
        return { data: rows.map(viewOf), meta: pageMeta(p, count) };
      });
    },

    /** PATCH /drafts: metaData replaced as a whole when given (the editor sends the whole payload), draftType / publishedAt when given. */
    async update(
      tenant: Tenant,
      input: { id: string; hasMetaData: boolean; metaDataJson: string; draftType: string; publishedAt: string },
    ): Promise<DraftView> {
      assertCanEdit(tenant);
      const id = input.id.trim().toLowerCase();
      const problems: FieldProblem[] = [];
      if (id === '') problems.push({ field: 'id', message: DOC_MSG.required('id') });
      else if (!isUuid(id)) problems.push({ field: 'id', message: DOC_MSG.uuid('id') });
      throwIfAny(problems);
      const seen = (await withTenant(db, tenant, (trx) => draftsByIds(trx, [id]))).get(id);
      if (!seen || seen.deleted_at) throw notFound('id');
      const meta = input.hasMetaData ? parseMetaData(input.metaDataJson) : {};
      if (meta.problem) problems.push(meta.problem);
      const draftType = input.draftType.trim();
      if (draftType !== '' && !isDraftType(draftType)) problems.push({ field: 'draftType', message: DRAFT_MSG.draftType });
      const publishedAt = input.publishedAt.trim() === '' ? undefined : parsePublishedAt(input.publishedAt, new Date());
      if (input.publishedAt.trim() !== '' && !publishedAt) problems.push({ field: 'publishedAt', message: DRAFT_MSG.publishedAt });
      if (meta.value) await assertOwnReferences(tenant, meta.value);
      throwIfAny(problems);
      const row = await withTenant(db, tenant, async (trx) => {
        const locked = (await draftsByIds(trx, [id], true)).get(id);
        if (!locked || locked.deleted_at) throw notFound('id');
        if (locked.document_id)
          throw new AppError(ErrorKind.FailedPrecondition, DRAFT_MSG.converted, { fields: [{ field: 'id', message: DRAFT_MSG.converted }] });
        return updateDraft(trx, id, {
          meta_data: meta.value,
          draft_type: draftType || undefined,
          published_at: publishedAt,
          last_modified_by: tenant.userId ?? '',
        });
      });
      return viewOf(row);
    },

    /** DELETE /drafts?draftIds=a,b: each must be the workspace's (else 404 naming draftIds, nothing deleted). */
    async remove(tenant: Tenant, ids: readonly string[]): Promise<DraftBatch> {
      assertCanEdit(tenant);
      const c = cleanDraftIds(ids);
      throwIfAny(c.problems);
      const deletedCount = await withTenant(db, tenant, async (trx) => {
        const rows = await draftsByIds(trx, c.value, true);
        if (c.value.some((id) => !rows.has(id))) throw notFound('draftIds');
        return markDraftsDeleted(
          trx,
          c.value.filter((id) => isOpen(rows.get(id) as DraftRow)),
          tenant.userId ?? '',
        );
      });
      return { createdCount: 0, failedCount: 0, success: true, deletedCount, message: DRAFT_MSG.deleted(deletedCount), results: [] };
    },

    /** DELETE /drafts/bulk-delete?bulkUploadId=: every open draft of that bulk upload; a bulk upload no draft of the workspace came from is a 404. */
    async removeBulkUpload(tenant: Tenant, bulkUploadIdText: string): Promise<DraftBatch> {
      assertCanEdit(tenant);
      const bulkUploadId = bulkUploadIdText.trim().toLowerCase();
      if (bulkUploadId === '') throwIfAny([{ field: 'bulkUploadId', message: DOC_MSG.required('bulkUploadId') }]);
      if (!isUuid(bulkUploadId)) throwIfAny([{ field: 'bulkUploadId', message: DOC_MSG.uuid('bulkUploadId') }]);
      const deletedCount = await withTenant(db, tenant, async (trx) => {
        if (!(await bulkUploadKnown(trx, bulkUploadId))) throw notFound('bulkUploadId', DRAFT_MSG.bulkUploadNotFound);
        return markDraftsDeleted(trx, await openDraftIdsOfBulkUpload(trx, bulkUploadId), tenant.userId ?? '');
      });
      return { createdCount: 0, failedCount: 0, success: true, deletedCount, message: DRAFT_MSG.deleted(deletedCount), results: [] };
    },

    /**
     * POST /accounting/drafts/create-bills | create-invoices: each draft in the given order, one by one. A draft converted
     * before (by an earlier or a concurrent call) counts as created with its document; deletedCount is how many of the
     * drafts left the list (the converted ones). success: none failed.
     */
    async convert(tenant: Tenant, entityText: string, ids: readonly string[]): Promise<DraftBatch> {
      assertCanEdit(tenant);
      const entity = entityText.trim();
      if (!isDraftEntity(entity)) throwIfAny([{ field: 'entityType', message: DRAFT_MSG.entityType }]);
      const c = cleanDraftIds(ids);
      throwIfAny(c.problems);
      const rows = await ownDrafts(tenant, c.value);
      const results: DraftResult[] = [];
      for (const id of c.value) results.push(await convertOne(tenant, entity as DraftEntity, rows.get(id) as DraftRow));
      const createdCount = results.filter((r) => !r.error).length;
      const failedCount = results.length - createdCount;
      return {
        createdCount,
        failedCount,
        success: failedCount === 0,
        deletedCount: createdCount,
        message: conversionMessage(entity as DraftEntity, createdCount, failedCount),
        results,
      };
    },
  };
}

export type DraftUseCases = ReturnType<typeof createDraftUseCases>;
