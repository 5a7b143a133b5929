// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { documents } from './service.js';

export const migrateDocuments = documents.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await documents.migrateMain();
