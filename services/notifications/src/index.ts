export { notifications as service, createNotificationsService, type NotificationsService, type NotificationsOverrides } from './service.js';
export { notificationsConfigSchema, type NotificationsConfig } from './config.js';
export { notificationsMigrations } from './store/migrations.js';
export { migrateNotifications } from './migrate.js';
