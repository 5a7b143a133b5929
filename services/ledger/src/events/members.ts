import { eventMessage, EventType, isUuid, startConsumer, type EventBus, type Knex, type Logger, type Subscription } from '@ledgerline/platform';
import { applyMemberChange, type MemberChange } from '../store/workspace-members.js';

/** The durable (and inbox) name of the consumer of member.changed. */
export const MEMBERS_CONSUMER = 'ledger_members';

/** A member.changed as received, checked like input: ids, and the envelope's workspace the payload's. */
export function checkMemberChange(workspaceId: string, m: MemberChange): MemberChange {
  if (!isUuid(m.workspaceId) || !isUuid(m.userId)) throw new Error('member.changed: workspace_id and user_id must be UUIDs');
  if (m.workspaceId.toLowerCase() !== workspaceId.toLowerCase()) throw new Error('member.changed: the envelope names another workspace');
  return { ...m, workspaceId: m.workspaceId.toLowerCase(), userId: m.userId.toLowerCase() };
}

/**
 * identity's member.changed → the workspace's members (decision 0036): whom a comment can tag, and the names its
 * comments, receipts and history show. Each event is the pair's whole state; the newest version wins, so a
 * redelivery, the backfill's repeat or an older state arriving late changes nothing. A bad payload is
 * dead-lettered at once.
 */
export function startMembersConsumer(options: { db: Knex; bus: EventBus; logger: Logger; maxDeliver?: number }): Promise<Subscription> {
  return startConsumer<typeof EventType.MemberChanged, MemberChange>({
    name: MEMBERS_CONSUMER,
    types: [EventType.MemberChanged],
    db: options.db,
    bus: options.bus,
    logger: options.logger,
    maxDeliver: options.maxDeliver ?? 8,
    check: (event) => {
      const m = eventMessage(event);
      return checkMemberChange(event.workspaceId, {
        workspaceId: m.workspaceId,
        userId: m.userId,
        role: m.role,
        removed: m.removed,
        name: m.name.trim(),
        email: m.email.trim(),
        version: m.version,
      });
    },
    handle: async (trx, event) => {
      await applyMemberChange(trx, event.checked);
    },
  });
}
