import { createServiceClient, defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { PartiesService } from '@ledgerline/proto/parties/v1/parties_pb';
import { documentLedger, type DocumentLedger, type LedgerClient } from './clients/ledger.js';
import { partyLookup, type PartiesClient } from './clients/parties.js';
import { documentsConfigSchema, type DocumentsConfig } from './config.js';
import { createRecurrenceScheduler, type RecurrenceScheduler } from './jobs/recurrence-scheduler.js';
import { createRecurrenceUseCases, type RecurrenceUseCases } from './usecases/recurrence.js';
import { createUseCases, type DocumentsUseCases } from './usecases/index.js';
import { createVendorMerge } from './usecases/vendor-merge.js';
import { documentsMigrations } from './store/migrations.js';
import { documentsRoutes } from './rpc/handlers.js';
import { draftsRoutes } from './rpc/drafts.js';
import { createDraftUseCases, type DraftUseCases } from './usecases/drafts.js';
import { startVendorMergeConsumer } from './events/vendor-merge-consumer.js';
import { transactionSource, type TransactionSource } from './clients/transactions.js';
import { createUploadsSweeper, type UploadsSweeper } from './jobs/uploads-sweeper.js';
import { uploadsRoutes } from './rpc/uploads.js';
import { assertStorageSettings } from './storage/settings.js';
import { createObjectStore, type ObjectStore } from './storage/object-store.js';
import { createUploadUseCases, type UploadUseCases } from './usecases/uploads.js';
import { LedgerFixedAssetService } from '@ledgerline/proto/ledger/v1/fixed_assets_pb';
import { fixedAssetLedger, type LedgerFixedAssetClient } from './clients/ledger-fixed-assets.js';
import { createFixedAssetUseCases, type FixedAssetUseCases } from './usecases/fixed-assets.js';
import { fixedAssetRoutes } from './rpc/fixed-assets.js';
import { createBulkUploadUseCases, type BulkReader, type BulkUploadUseCases } from './usecases/bulk-upload.js';
import { createBulkUploadWorker, type BulkUploadWorker } from './jobs/bulk-upload.js';
import { bulkUploadRoutes } from './rpc/bulk-upload.js';

export type DocumentsOverrides = BaseOverrides & {
  /** Clients tests hand in; default: Connect clients to LEDGER_URL and PARTIES_URL. */
  ledger?: LedgerClient;
  ledgerFixedAssets?: LedgerFixedAssetClient;
  parties?: PartiesClient;
  /** Wraps the ledger the use cases see (fault tests make its booking call fail, as a crash right after the commit would). */
  documentLedger?: (real: DocumentLedger) => DocumentLedger;
  /** The recurrence scheduler's clock (default: the system's); its UTC date is "today" for schedules. */
  clock?: () => Date;
  /** Deliveries of one event before its consumer dead-letters it (default 8). */
  maxDeliver?: number;
  /** The uploads' object store (default: S3 by the DOCUMENTS_S3_* settings) and the transactions receipts match against. */
  objectStore?: ObjectStore;
  transactions?: TransactionSource;
  /** The bulk-upload job's reader (default readDocument) and its poll interval (default 2 s). */
  bulkReader?: BulkReader;
  bulkPollMs?: number;
};

/**
 * The documents service: bills, invoices and manual journals. Posts each version through the ledger (PostDocument),
 * checks vendors and customers with the parties service, publishes documents.document_changed and posting.requested
 * (decision 0012) through its outbox. Its job, the recurrence scheduler, creates the occurrences of recurring documents.
 */
export const documents = defineService({
  name: 'documents',
  config: documentsConfigSchema,
  migrations: documentsMigrations,
  publishes: true,
  assertConfig: assertStorageSettings,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<DocumentsConfig, DocumentsOverrides>) => {
    const timeoutMs = config.DOCUMENTS_CALL_TIMEOUT_MS;
    const ledger =
      overrides.ledger ??
      createServiceClient(LedgerService, {
        baseUrl: config.LEDGER_URL,
        timeoutMs,
        trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'documents', audience: 'ledger' },
      });
    const parties =
      overrides.parties ??
      createServiceClient(PartiesService, {
        baseUrl: config.PARTIES_URL,
        timeoutMs,
        trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'documents', audience: 'parties' },
      });
    const lookup = partyLookup(parties);
    const booking = (overrides.documentLedger ?? ((l) => l))(documentLedger(ledger));
    const clock = overrides.clock ?? (() => new Date());
    const today = () => clock().toISOString().slice(0, 10);
    const recurrence = createRecurrenceUseCases({ db, logger, ledger: booking, today, wake: () => scheduler.wake() });
    const useCases = createUseCases({ db, logger, ledger: booking, parties: lookup, schedules: recurrence });
    const scheduler = createRecurrenceScheduler({ sweep: () => recurrence.runDue(), intervalMs: config.DOCUMENTS_RECURRENCE_INTERVAL_SECONDS * 1000, logger });
    const merges = createVendorMerge({ parties: lookup, logger });
    const drafts = createDraftUseCases({ db, logger, documents: useCases, parties: lookup, ledger: booking, wake: () => scheduler.wake() });
    const objectStore = overrides.objectStore ?? createObjectStore(config);
    const bulk = createBulkUploadUseCases({ db, logger, store: objectStore, uploads: () => uploads, reader: overrides.bulkReader });
    const bulkWorker = createBulkUploadWorker({ runOne: () => bulk.runOne(), intervalMs: overrides.bulkPollMs ?? 2_000, logger });
    const onStored: NonNullable<Parameters<typeof createUploadUseCases>[0]['onStored']> = async (trx, ws, type, ids) => {
      if (await bulk.enqueue(trx, ws, type, ids)) setImmediate(() => bulkWorker.wake());
    };
    const uploads = createUploadUseCases({ db, logger, store: objectStore, transactions: overrides.transactions ?? transactionSource(ledger), onStored });
    const uploadsSweeper = createUploadsSweeper({
      store: objectStore,
      sweep: () => uploads.sweep(config.DOCUMENTS_UPLOAD_PENDING_SECONDS),
      intervalMs: config.DOCUMENTS_UPLOAD_SWEEP_SECONDS * 1000,
      logger,
    });
    const assetLedger =
      overrides.ledgerFixedAssets ??
      createServiceClient(LedgerFixedAssetService, {
        baseUrl: config.LEDGER_URL,
        timeoutMs,
        trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'documents', audience: 'ledger' },
      });
    const fixedAssets = createFixedAssetUseCases({ db, logger, ledger: fixedAssetLedger(assetLedger), today, wake: () => depreciation.wake() });
    const depreciation = createRecurrenceScheduler({
      sweep: () => fixedAssets.runDue(),
      intervalMs: config.DOCUMENTS_RECURRENCE_INTERVAL_SECONDS * 1000,
      logger,
    });
    return {
      routes: (router) => {
        documentsRoutes(useCases, recurrence)(router);
        draftsRoutes(drafts)(router);
        uploadsRoutes(uploads)(router);
        fixedAssetRoutes(fixedAssets)(router);
        bulkUploadRoutes(bulk)(router);
      },
      consumers: [() => startVendorMergeConsumer({ db, bus, logger, mover: merges, maxDeliver: overrides.maxDeliver })],
      jobs: [scheduler, uploadsSweeper, depreciation, bulkWorker],
      expose: { useCases, recurrence, scheduler, drafts, uploads, uploadsSweeper, fixedAssets, depreciation, bulk, bulkWorker },
    };
  },
});

export type DocumentsService = Running<
  {
    useCases: DocumentsUseCases;
    recurrence: RecurrenceUseCases;
    scheduler: RecurrenceScheduler;
    drafts: DraftUseCases;
    uploads: UploadUseCases;
    uploadsSweeper: UploadsSweeper;
    fixedAssets: FixedAssetUseCases;
    depreciation: RecurrenceScheduler;
    bulk: BulkUploadUseCases;
    bulkWorker: BulkUploadWorker;
  },
  true
>;
export const createDocumentsService = (config: DocumentsConfig, overrides: DocumentsOverrides = {}): Promise<DocumentsService> =>
  documents.create(config, overrides);
