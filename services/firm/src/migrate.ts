// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { firm } from './service.js';

export const migrateFirm = firm.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await firm.migrateMain();
