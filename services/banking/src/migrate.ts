// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { banking } from './service.js';

export const migrateBanking = banking.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await banking.migrateMain();
