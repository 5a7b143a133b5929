// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { parties } from './service.js';

export const migrateParties = parties.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await parties.migrateMain();
