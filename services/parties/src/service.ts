import { createServiceClient, defineService, type BaseOverrides, type Running, type ServiceContext } from '@ledgerline/platform';
import { startQuickBooksSyncedConsumer } from './events/quickbooks-synced.js';
import { LedgerService } from '@ledgerline/proto/ledger/v1/ledger_pb';
import { ledgerLink, type LedgerClient } from './clients/ledger.js';
import { creditLedger, type CreditLedger } from './clients/ledger-credits.js';
import { ruleLedgerLink } from './clients/ledger-rules.js';
import { partiesConfigSchema, type PartiesConfig } from './config.js';
import { startCategorisationConsumer } from './events/categorisation-consumer.js';
import { startDocumentsConsumer } from './events/documents-consumer.js';
import { startMerchantConsumer } from './events/merchant-consumer.js';
import { partiesRoutes } from './rpc/handlers.js';
import { partiesMigrations } from './store/migrations.js';
import { CategorisationUseCases } from './usecases/categorisation.js';
import { createCreditUseCases, type CreditUseCases } from './usecases/credits.js';
import { createUseCases, type PartiesUseCases } from './usecases/index.js';
import { createVendorRuleUseCases } from './usecases/vendor-rules.js';

export type PartiesOverrides = BaseOverrides & {
  /** The ledger client (tests hand one in); default: a Connect client to LEDGER_URL. */
  ledger?: LedgerClient;
  /** Wraps the credits' ledger (fault tests make its booking call fail, as a crash right after the commit would). */
  creditLedger?: (real: CreditLedger) => CreditLedger;
  maxDeliver?: number;
};

/**
 * The parties service: vendors and customers. Publishes vendor.changed and customer.changed through its outbox;
 * consumes the ledger's entry.posted (a bank merchant becomes a vendor) and its categorisation events (the learned
 * model: transaction.categorized, categorization.requested → categorization.suggested); calls the ledger for the vendor
 * link; consumes the documents service's documents.document_changed (the bills' and invoices' figures, read back
 * from the documents service). Credits publish posting.requested, which the ledger books (decision 0012).
 */
export const parties = defineService({
  name: 'parties',
  config: partiesConfigSchema,
  migrations: partiesMigrations,
  publishes: true,
  build: ({ config, overrides, db, bus, logger }: ServiceContext<PartiesConfig, PartiesOverrides>) => {
    const client =
      overrides.ledger ??
      createServiceClient(LedgerService, {
        baseUrl: config.LEDGER_URL,
        timeoutMs: config.PARTIES_LEDGER_TIMEOUT_MS,
        trust: { key: config.SERVICE_TOKEN_KEY, issuer: 'parties', audience: 'ledger' },
      });
    const useCases = createUseCases({ db, logger, ledger: ledgerLink(client) });
    const credits = createCreditUseCases({ db, ledger: (overrides.creditLedger ?? ((l) => l))(creditLedger(client)), logger });
    const categorisation = new CategorisationUseCases(db);
    return {
      routes: partiesRoutes(useCases, credits, createVendorRuleUseCases({ db, ledger: ruleLedgerLink(client) })),
      consumers: [
        () => startMerchantConsumer({ db, bus, logger, adopter: useCases, maxDeliver: overrides.maxDeliver }),
        () => startCategorisationConsumer({ db, bus, logger, model: categorisation, maxDeliver: overrides.maxDeliver }),
        () => startDocumentsConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver }),
        () => startQuickBooksSyncedConsumer({ db, bus, logger, maxDeliver: overrides.maxDeliver }),
      ],
      expose: { useCases, credits, categorisation },
    };
  },
});

export type PartiesService = Running<{ useCases: PartiesUseCases; credits: CreditUseCases; categorisation: CategorisationUseCases }, true>;
export const createPartiesService = (config: PartiesConfig, overrides: PartiesOverrides = {}): Promise<PartiesService> => parties.create(config, overrides);
