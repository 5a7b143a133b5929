// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { integrations } from './service.js';

export const migrateIntegrations = integrations.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await integrations.migrateMain();
