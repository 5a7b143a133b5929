// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { identity } from './service.js';

export const migrateIdentity = identity.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await identity.migrateMain();
