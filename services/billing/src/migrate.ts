// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { billing } from './service.js';

export const migrateBilling = billing.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await billing.migrateMain();
