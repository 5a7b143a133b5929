import type { IntegrationsDeps } from './context.js';
import { StripeSyncScheduler } from './stripe-jobs.js';
import { StripeAnalytics } from './stripe-analytics.js';
import { StripeIntegration } from './stripe.js';
import { StripeSyncWorker } from '../stripe/sync.js';
import { QuickBooksIntegration } from '../quickbooks/integration.js';
import { QuickBooksJobs } from '../quickbooks/jobs.js';

export type { IntegrationsDeps, Tenant } from './context.js';

export function createUseCases(deps: IntegrationsDeps) {
  const scheduler = new StripeSyncScheduler(deps);
  const quickbooks = new QuickBooksIntegration(deps);
  return {
    scheduler,
    stripe: new StripeIntegration(deps, scheduler),
    analytics: new StripeAnalytics(deps),
    worker: new StripeSyncWorker(deps),
    quickbooks,
    quickbooksJobs: new QuickBooksJobs(deps, quickbooks),
  };
}

export type IntegrationsUseCases = ReturnType<typeof createUseCases>;
