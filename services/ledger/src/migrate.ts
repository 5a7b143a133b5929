// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { ledger } from './service.js';

export const migrateLedger = ledger.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await ledger.migrateMain();
