import { eventMessage, EventType, isUuid, startConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';
import { bankAccountsStore, membersStore } from '../store/notifications-store.js';
import { deliver, produce } from '../usecases/produce.js';

/** The durable (and inbox) name of the notifications consumer. */
export const NOTIFICATIONS_CONSUMER = 'notifications_events';

const TYPES = [
  EventType.MemberChanged,
  EventType.TransactionCommented,
  EventType.BankAccountLinked,
  EventType.BankAccountSynced,
  EventType.BankConnectionReconnectRequired,
  EventType.InviteAccepted,
] as const;

type Consumed = (typeof TYPES)[number];

const uuid = (value: string, what: string): string => {
  if (!isUuid(value)) throw new Error(`${what} must be a UUID`);
  return value.toLowerCase();
};

/**
 * Other services' events → notifications (decision 0040), through the chassis' inbox: each event's notifications,
 * `notification.created` events and mails commit with its inbox row, so a redelivered event changes nothing. A
 * payload that cannot be read is dead-lettered at once (`check`).
 */
export function startNotificationsConsumer(options: { db: Knex; bus: EventBus; logger: Logger; webUrl: string; maxDeliver?: number }): Promise<Subscription> {
  const { webUrl } = options;
  return startConsumer<Consumed>({
    name: NOTIFICATIONS_CONSUMER,
    types: TYPES,
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    maxDeliver: options.maxDeliver ?? 8,
    check: (event) => {
      uuid(event.workspaceId, 'the workspace');
      switch (event.type) {
        case EventType.TransactionCommented: {
          const c = eventMessage(event);
          uuid(c.transactionId, 'transaction_id');
          uuid(c.authorUserId, 'author_user_id');
          c.taggedUserIds.forEach((id) => uuid(id, 'tagged_user_ids'));
          break;
        }
        case EventType.MemberChanged: {
          const m = eventMessage(event);
          uuid(m.userId, 'user_id');
          if (uuid(m.workspaceId, 'workspace_id') !== event.workspaceId.toLowerCase()) throw new Error('member.changed: the envelope names another workspace');
          break;
        }
        default:
          eventMessage(event);
      }
    },
    handle: async (trx, event) => {
      const source = { id: event.id, workspaceId: event.workspaceId.toLowerCase() };
      switch (event.type) {
        case EventType.MemberChanged: {
          const m = eventMessage(event);
          await membersStore.apply(trx, {
            workspaceId: source.workspaceId,
            userId: m.userId.toLowerCase(),
            role: m.role,
            removed: m.removed,
            name: m.name.trim(),
            email: m.email.trim(),
            version: m.version,
          });
          return;
        }
        case EventType.BankAccountLinked: {
          const a = eventMessage(event);
          if (isUuid(a.accountId)) await bankAccountsStore.named(trx, source.workspaceId, a.accountId, a.name);
          return;
        }
        case EventType.TransactionCommented: {
          const c = eventMessage(event);
          const tagged = c.taggedUserIds.map((id) => id.toLowerCase());
          await deliver(
            trx,
            source.workspaceId,
            produce.commentTagged(source, { ...c, authorUserId: c.authorUserId.toLowerCase(), taggedUserIds: tagged }),
            webUrl,
          );
          return;
        }
        case EventType.BankAccountSynced: {
          const s = eventMessage(event);
          if (!isUuid(s.accountId)) return;
          await deliver(
            trx,
            source.workspaceId,
            await produce.syncFinished(trx, source, { accountId: s.accountId, version: s.version, postedCount: s.postedCount }),
            webUrl,
          );
          return;
        }
        case EventType.BankConnectionReconnectRequired: {
          const r = eventMessage(event);
          await deliver(trx, source.workspaceId, await produce.reconnectRequired(trx, source, r), webUrl);
          return;
        }
        case EventType.InviteAccepted: {
          const i = eventMessage(event);
          await deliver(trx, source.workspaceId, await produce.inviteAccepted(trx, source, { ...i, invitedByUserId: i.invitedByUserId.toLowerCase() }), webUrl);
          return;
        }
      }
    },
  });
}
