import { AppError, ErrorKind, isUuid, withTenant, type Knex, type Logger, type TenantContext } from '@ledgerline/platform';
import { MARK_READ_MAX_IDS, NOTIFY_MSG, PAGE_DEFAULT_TAKE, PAGE_MAX, PAGE_MAX_TAKE, type NotificationView } from '../domain/notifications.js';
import { notificationsStore, preferencesStore, type Preferences } from '../store/notifications-store.js';

export interface NotificationsDeps {
  db: Knex;
  logger: Logger;
}

export type Tenant = TenantContext & { workspaceId: string };

export interface NotificationsPage {
  notifications: NotificationView[];
  total: number;
  unreadCount: number;
  readCount: number;
  page: number;
  take: number;
}

export const DEFAULT_PREFERENCES: Preferences = { emailCommentTagged: true, emailReconnectRequired: true };

/** The caller is a signed-in user of the workspace: every use case reads and changes only their own notifications. */
function userOf(tenant: Tenant): string {
  if (!tenant.userId) throw AppError.invalid([{ field: 'userId', message: 'userId is required' }]);
  return tenant.userId;
}

const notFound = () => AppError.notFound('Notification');

export function createUseCases({ db }: NotificationsDeps) {
  return {
    /** The caller's notifications, newest first; `isRead` '' (all), 'true' or 'false'; page from 1, take 1–100 (0: defaults). */
    async list(tenant: Tenant, input: { isRead: string; page: number; take: number }): Promise<NotificationsPage> {
      const userId = userOf(tenant);
      const problems = [];
      if (!['', 'true', 'false'].includes(input.isRead)) problems.push({ field: 'isRead', message: NOTIFY_MSG.isRead });
      const page = input.page === 0 ? 1 : input.page;
      const take = input.take === 0 ? PAGE_DEFAULT_TAKE : input.take;
      if (!Number.isInteger(page) || page < 1 || page > PAGE_MAX) problems.push({ field: 'page', message: NOTIFY_MSG.page });
      if (!Number.isInteger(take) || take < 1 || take > PAGE_MAX_TAKE) problems.push({ field: 'take', message: NOTIFY_MSG.take });
      if (problems.length > 0) throw AppError.invalid(problems);
      const isRead = input.isRead === '' ? undefined : input.isRead === 'true';
      return withTenant(db, tenant, async (trx) => {
        const { rows, total } = await notificationsStore.page(trx, userId, { isRead, page, take });
        const counts = await notificationsStore.counts(trx, userId);
        return { notifications: rows, total, unreadCount: counts.unread, readCount: counts.read, page, take };
      });
    },

    /** Marks one of the caller's notifications read; another user's or workspace's id is not found (404), as an unknown one. */
    async markRead(tenant: Tenant, id: string): Promise<NotificationView> {
      const userId = userOf(tenant);
      if (!isUuid(id)) throw AppError.invalid([{ field: 'id', message: NOTIFY_MSG.id }]);
      return withTenant(db, tenant, async (trx) => {
        if (!(await notificationsStore.byId(trx, userId, id))) throw notFound();
        await notificationsStore.markRead(trx, userId, [id]);
        return (await notificationsStore.byId(trx, userId, id)) as NotificationView;
      });
    },

    /**
     * Marks the named notifications read — all of them or none: an id that is not the caller's is a 404 naming
     * notificationIds — or, with no ids, every unread one of the caller in the workspace ("mark all read").
     */
    async markManyRead(tenant: Tenant, ids: readonly string[] | undefined): Promise<{ marked: number; unreadCount: number }> {
      const userId = userOf(tenant);
      let unique: string[] | undefined;
      if (ids && ids.length > 0) {
        if (ids.some((id) => !isUuid(id))) throw AppError.invalid([{ field: 'notificationIds', message: NOTIFY_MSG.ids }]);
        unique = [...new Set(ids.map((id) => id.toLowerCase()))];
        if (unique.length > MARK_READ_MAX_IDS) throw AppError.invalid([{ field: 'notificationIds', message: NOTIFY_MSG.tooManyIds }]);
      }
      return withTenant(db, tenant, async (trx) => {
        if (unique && (await notificationsStore.countOwned(trx, userId, unique)) !== unique.length) {
          throw new AppError(ErrorKind.NotFound, NOTIFY_MSG.notFound, { fields: [{ field: 'notificationIds', message: NOTIFY_MSG.idsNotFound }] });
        }
        const marked = await notificationsStore.markRead(trx, userId, unique);
        return { marked, unreadCount: (await notificationsStore.counts(trx, userId)).unread };
      });
    },

    async preferences(tenant: Tenant): Promise<Preferences> {
      const userId = userOf(tenant);
      return withTenant(db, tenant, async (trx) => (await preferencesStore.of(trx, [userId])).get(userId) ?? DEFAULT_PREFERENCES);
    },

    async updatePreferences(tenant: Tenant, patch: Partial<Preferences>): Promise<Preferences> {
      const userId = userOf(tenant);
      if (patch.emailCommentTagged === undefined && patch.emailReconnectRequired === undefined) {
        throw AppError.invalid([{ field: 'emailCommentTagged', message: NOTIFY_MSG.preferencesEmpty }]);
      }
      return withTenant(db, tenant, async (trx) => {
        await preferencesStore.upsert(trx, tenant.workspaceId, userId, patch);
        return (await preferencesStore.of(trx, [userId])).get(userId) ?? DEFAULT_PREFERENCES;
      });
    },
  };
}

export type NotificationsUseCases = ReturnType<typeof createUseCases>;
