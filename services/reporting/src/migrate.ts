// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { reporting } from './service.js';

export const migrateReporting = reporting.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await reporting.migrateMain();
