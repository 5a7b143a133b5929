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
import { startVendorMergeConsumer } from './events/vendor-merge-consumer.js';

export type DocumentsOverrides = BaseOverrides & {
  /** Clients tests hand in; default: Connect clients to LEDGER_URL and PARTIES_URL. */
  ledger?: LedgerClient;
  parties?: PartiesClient;
  /** Wraps the ledger the use cases see (fault tests make its booking call fail, as a crash right after the commit would). */
  documentLedger?: (real: DocumentLedger) => DocumentLedger;
  /** The recurrence scheduler's clock (default: the system's); its UTC date is "today" for schedules. */
  clock?: () => Date;
  /** Deliveries of one event before its consumer dead-letters it (default 8). */
  maxDeliver?: number;
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
  build: ({ config, overrides, db, bus, logger }: ServiceContext<DocumentsConfig, DocumentsOverrides>) => {
    const timeoutMs = config.DOCUMENTS_CALL_TIMEOUT_MS;
    const ledger = overrides.ledger ?? createServiceClient(LedgerService, { baseUrl: config.LEDGER_URL, timeoutMs, trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'documents', audience: 'ledger' } });
    const parties = overrides.parties ?? createServiceClient(PartiesService, { baseUrl: config.PARTIES_URL, timeoutMs, trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'documents', audience: 'parties' } });
    const lookup = partyLookup(parties);
    const booking = (overrides.documentLedger ?? ((l) => l))(documentLedger(ledger));
    const clock = overrides.clock ?? (() => new Date());
    const today = () => clock().toISOString().slice(0, 10);
    const recurrence = createRecurrenceUseCases({ db, logger, ledger: booking, today, wake: () => scheduler.wake() });
    const useCases = createUseCases({ db, logger, ledger: booking, parties: lookup, schedules: recurrence });
    const scheduler = createRecurrenceScheduler({ sweep: () => recurrence.runDue(), intervalMs: config.DOCUMENTS_RECURRENCE_INTERVAL_SECONDS * 1000, logger });
    const merges = createVendorMerge({ parties: lookup, logger });
    return {
      routes: documentsRoutes(useCases, recurrence),
      consumers: [() => startVendorMergeConsumer({ db, bus, logger, mover: merges, maxDeliver: overrides.maxDeliver })],
      jobs: [scheduler],
      expose: { useCases, recurrence, scheduler },
    };
  },
});

export type DocumentsService = Running<{ useCases: DocumentsUseCases; recurrence: RecurrenceUseCases; scheduler: RecurrenceScheduler }, true>;
export const createDocumentsService = (config: DocumentsConfig, overrides: DocumentsOverrides = {}): Promise<DocumentsService> => documents.create(config, overrides);
