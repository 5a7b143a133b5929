import { EventType, mailOutboxStore, writeEvents, type Knex } from '@ledgerline/platform';
import { BANK_ROLES, commentTagged, inviteAccepted, MAILED_TYPES, reconnectRequired, syncFinished, type NewNotification } from '../domain/notifications.js';
import { notificationMail } from '../mail/templates.js';
import { bankAccountsStore, membersStore, preferencesStore } from '../store/notifications-store.js';
import { notificationsStore } from '../store/notifications-store.js';
import { DEFAULT_PREFERENCES } from './index.js';

/** An event as the producers read it: its id (the notifications' source) and its workspace. */
export interface Source {
  id: string;
  workspaceId: string;
}

/**
 * Stores the notifications (a source already stored for a user is skipped), writes `notification.created` for each
 * (the gateway's live stream) and the mails users want, all in the consumer's transaction with its inbox row: an
 * event is turned into notifications, events and mails exactly once (decision 0040).
 */
export async function deliver(trx: Knex.Transaction, workspaceId: string, items: readonly NewNotification[], webUrl: string): Promise<number> {
  const stored = await notificationsStore.insert(trx, workspaceId, items);
  if (stored.length === 0) return 0;
  await writeEvents(
    trx,
    'notifications',
    stored.map(({ id, item }) => ({ type: EventType.NotificationCreated, workspaceId, payload: { notificationId: id, userId: item.userId, type: item.type } })),
  );
  const mailed = stored.filter(({ item }) => MAILED_TYPES.has(item.type));
  if (mailed.length > 0) {
    const userIds = [...new Set(mailed.map(({ item }) => item.userId))];
    const [members, prefs] = await Promise.all([membersStore.byIds(trx, userIds), preferencesStore.of(trx, userIds)]);
    const emailOf = new Map(members.filter((m) => !m.removed && m.email !== '').map((m) => [m.user_id, m.email]));
    for (const { item } of mailed) {
      const p = prefs.get(item.userId) ?? DEFAULT_PREFERENCES;
      const wanted = item.type === 'comment_tagged' ? p.emailCommentTagged : p.emailReconnectRequired;
      const to = emailOf.get(item.userId);
      if (wanted && to) await mailOutboxStore.add(trx, notificationMail(to, item, webUrl));
    }
  }
  return stored.length;
}

/** The producers: one event in, the notifications it makes (the consumer stores them with `deliver`). */
export const produce = {
  /** Each tagged member but the author. */
  commentTagged(event: Source, c: { authorUserId: string; authorName: string; comment: string; transactionId: string; taggedUserIds: readonly string[] }) {
    return c.taggedUserIds
      .filter((id) => id !== c.authorUserId)
      .map((userId) => commentTagged({ userId, author: c.authorName, comment: c.comment, transactionId: c.transactionId, sourceKey: `comment:${event.id}` }));
  },

  /** The bank roles, when the sync brought transactions the account did not have (the first sync seen is the import). */
  async syncFinished(trx: Knex.Transaction, event: Source, s: { accountId: string; version: bigint; postedCount: bigint }): Promise<NewNotification[]> {
    const seen = await bankAccountsStore.synced(trx, event.workspaceId, s.accountId, s.version, s.postedCount);
    if (!seen) return [];
    const newCount = Number(s.postedCount - (seen.before ?? 0n));
    if (newCount <= 0) return [];
    const members = await membersStore.current(trx, BANK_ROLES);
    return members.map((m) =>
      syncFinished({ userId: m.user_id, accountName: seen.name, accountId: s.accountId, newCount, first: seen.before === null, sourceKey: `sync:${event.id}` }),
    );
  },

  async reconnectRequired(trx: Knex.Transaction, event: Source, r: { institutionName: string; accountIds: readonly string[] }): Promise<NewNotification[]> {
    const members = await membersStore.current(trx, BANK_ROLES);
    return members.map((m) =>
      reconnectRequired({ userId: m.user_id, institutionName: r.institutionName, accountId: r.accountIds[0] ?? '', sourceKey: `reconnect:${event.id}` }),
    );
  },

  /** The inviter, when they are still a member of the workspace. */
  async inviteAccepted(
    trx: Knex.Transaction,
    event: Source,
    i: { invitedByUserId: string; userName: string; email: string; role: string },
  ): Promise<NewNotification[]> {
    if (!i.invitedByUserId) return [];
    const [inviter] = await membersStore.byIds(trx, [i.invitedByUserId]);
    if (inviter?.removed) return [];
    return [inviteAccepted({ userId: i.invitedByUserId, name: i.userName, email: i.email, role: i.role, sourceKey: `invite:${event.id}` })];
  },
};
