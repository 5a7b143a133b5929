// What a notification says and where it leads: pure, no I/O.

/** The kinds of notification (decision 0040). */
export const NOTIFICATION_TYPES = ['comment_tagged', 'sync_finished', 'reconnect_required', 'invite_accepted'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The kinds a user may also get by mail (each with a preference, on by default). */
export const MAILED_TYPES: ReadonlySet<NotificationType> = new Set(['comment_tagged', 'reconnect_required']);

/** The fields of the spec's notification data (platform-core §3) plus the ids a link was made from. */
export interface NotificationData {
  comment?: string;
  userName?: string;
  requesteeUserName?: string;
  requesterUserName?: string;
  transactionId?: string;
  accountId?: string;
}

/** A notification about to be stored for one user. */
export interface NewNotification {
  userId: string;
  type: NotificationType;
  message: string;
  redirectUrl: string;
  data: NotificationData;
  /** What made it (event id and the part of it): the same source again for the same user is not stored twice. */
  sourceKey: string;
}

/** A notification as the use cases answer it. */
export interface NotificationView {
  id: string;
  type: NotificationType;
  message: string;
  redirectUrl: string;
  isRead: boolean;
  created: Date;
  data: NotificationData;
}

export const PAGE_DEFAULT_TAKE = 20;
export const PAGE_MAX_TAKE = 100;
export const PAGE_MAX = 100_000;
/** Ids one mark-read call may name. */
export const MARK_READ_MAX_IDS = 500;
/** Characters of a comment a notification quotes. */
export const QUOTE_MAX = 140;

export const NOTIFY_MSG = {
  notFound: 'Notification not found',
  isRead: 'isRead must be true or false',
  page: `page must be a whole number from 1 to ${PAGE_MAX}`,
  take: `take must be a whole number from 1 to ${PAGE_MAX_TAKE}`,
  ids: 'notificationIds must be UUIDs',
  tooManyIds: `notificationIds can name at most ${MARK_READ_MAX_IDS} notifications`,
  idsNotFound: 'notificationIds names a notification that is not yours',
  id: 'id must be a UUID',
  preferencesEmpty: 'Give emailCommentTagged or emailReconnectRequired',
} as const;

/** A comment cut to a quotable length (on a character, not a UTF-16 half), one line. */
export function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= QUOTE_MAX ? flat : `${chars.slice(0, QUOTE_MAX - 1).join('')}…`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The web app's places a notification opens (the shell's routes; the transactions screen opens its drawer at `?txn=`). */
export const LINKS = {
  transaction: (transactionId: string) => `/transactions?tab=all&txn=${encodeURIComponent(transactionId)}`,
  review: () => '/transactions?tab=review',
  connectAccounts: () => '/connect-accounts',
  members: () => '/settings?tab=organization',
};

/** Someone tagged the user in a comment on a transaction. */
export function commentTagged(input: { userId: string; author: string; comment: string; transactionId: string; sourceKey: string }): NewNotification {
  const who = input.author || 'A teammate';
  return {
    userId: input.userId,
    type: 'comment_tagged',
    message: `${who} tagged you in a comment: “${quote(input.comment)}”`,
    redirectUrl: LINKS.transaction(input.transactionId),
    data: { comment: input.comment, userName: input.author, transactionId: input.transactionId },
    sourceKey: input.sourceKey,
  };
}

/** A sync brought transactions: the first one ("import") or a later one. */
export function syncFinished(input: {
  userId: string;
  accountName: string;
  accountId: string;
  newCount: number;
  first: boolean;
  sourceKey: string;
}): NewNotification {
  const account = input.accountName || 'your bank account';
  const message = input.first
    ? `Import finished: ${plural(input.newCount, 'transaction', 'transactions')} from ${account} are ready to review`
    : `Sync finished: ${plural(input.newCount, 'new transaction', 'new transactions')} from ${account} to review`;
  return {
    userId: input.userId,
    type: 'sync_finished',
    message,
    redirectUrl: LINKS.review(),
    data: { accountId: input.accountId },
    sourceKey: input.sourceKey,
  };
}

/** A bank connection needs its user to sign in to the bank again. */
export function reconnectRequired(input: { userId: string; institutionName: string; accountId: string; sourceKey: string }): NewNotification {
  const bank = input.institutionName || 'Your bank';
  return {
    userId: input.userId,
    type: 'reconnect_required',
    message: `${bank} needs you to reconnect: syncing has stopped until you sign in to the bank again`,
    redirectUrl: LINKS.connectAccounts(),
    data: { accountId: input.accountId },
    sourceKey: input.sourceKey,
  };
}

/** Someone the user invited joined the workspace. */
export function inviteAccepted(input: { userId: string; name: string; email: string; role: string; sourceKey: string }): NewNotification {
  const who = input.name || input.email || 'Someone you invited';
  return {
    userId: input.userId,
    type: 'invite_accepted',
    message: `${who} accepted your invite and joined as ${input.role || 'a member'}`,
    redirectUrl: LINKS.members(),
    data: { requesteeUserName: who },
    sourceKey: input.sourceKey,
  };
}

/** Roles told about the workspace's bank connections (those who review and fix them; a Viewer cannot). */
export const BANK_ROLES: ReadonlySet<string> = new Set(['Owner', 'Admin', 'Accountant']);
