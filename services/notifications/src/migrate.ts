// The start-up step (locally) and the Helm pre-upgrade Job (in a cluster): provision and migrate once.
import { notifications } from './service.js';

export const migrateNotifications = notifications.migrate;

if (import.meta.url === `file://${process.argv[1]}`) await notifications.migrateMain();
