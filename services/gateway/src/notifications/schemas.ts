import { bool, int, str, uuid } from '../http/schemas.js';

/** The REST shapes of the notifications routes (platform-core §3 "Notification", §7), as JSON Schema. */
export const NotificationDataSchema = {
  $id: 'NotificationData',
  type: 'object',
  description:
    "What the notification is about (empty strings where a type has none): the comment and its author's name, the names of a request's people, the transaction or bank account it concerns.",
  properties: { comment: str, userName: str, requesteeUserName: str, requesterUserName: str, transactionId: str, accountId: str },
  required: ['comment', 'userName', 'requesteeUserName', 'requesterUserName', 'transactionId', 'accountId'],
  additionalProperties: false,
} as const;

export const NotificationSchema = {
  $id: 'Notification',
  type: 'object',
  description: 'A notification of the signed-in user in the current workspace.',
  properties: {
    id: uuid,
    type: { type: 'string', enum: ['comment_tagged', 'sync_finished', 'reconnect_required', 'invite_accepted'] },
    message: { type: 'string', description: 'The sentence to show.' },
    redirectUrl: { type: 'string', description: 'Where it leads in the web app: a path with its query, e.g. /transactions?tab=all&txn=<id> (the drawer).' },
    isRead: bool,
    status: { type: 'string', enum: ['unread', 'read'] },
    created: { type: 'string', format: 'date-time' },
    data: { $ref: 'NotificationData#' },
  },
  required: ['id', 'type', 'message', 'redirectUrl', 'isRead', 'status', 'created', 'data'],
  additionalProperties: false,
} as const;

export const NotificationListSchema = {
  $id: 'NotificationList',
  type: 'object',
  description: "A page of the user's notifications, newest first, with the counts of all their unread and read ones in the workspace.",
  properties: { data: { type: 'array', items: { $ref: 'Notification#' } }, meta: { $ref: 'PageMeta#' }, unreadCount: int, readCount: int },
  required: ['data', 'meta', 'unreadCount', 'readCount'],
  additionalProperties: false,
} as const;

export const MarkManyReadResponseSchema = {
  $id: 'NotificationsMarkedRead',
  type: 'object',
  description: 'How many notifications were unread and are read now, and how many stay unread.',
  properties: { message: str, marked: int, unreadCount: int },
  required: ['message', 'marked', 'unreadCount'],
  additionalProperties: false,
} as const;

export const NotificationPreferencesSchema = {
  $id: 'NotificationPreferences',
  type: 'object',
  description: "The signed-in user's mail preferences in the current workspace (both on until changed).",
  properties: {
    emailCommentTagged: { type: 'boolean', description: 'Mail me when someone tags me in a comment.' },
    emailReconnectRequired: { type: 'boolean', description: 'Mail me when a bank connection needs me to reconnect it.' },
  },
  required: ['emailCommentTagged', 'emailReconnectRequired'],
  additionalProperties: false,
} as const;

export const ListQuerySchema = {
  type: 'object',
  properties: {
    isRead: { type: 'string', enum: ['true', 'false'], description: 'true: read ones only; false: unread ones only; absent: all.' },
    page: { type: 'integer', minimum: 1, description: 'From 1 (default 1).' },
    take: { type: 'integer', minimum: 1, description: '1 to 100 (default 20).' },
  },
  additionalProperties: false,
} as const;

export const MarkManyReadBodySchema = {
  type: 'object',
  properties: {
    notificationIds: {
      type: 'array',
      maxItems: 500,
      items: { type: 'string', format: 'uuid' },
      description:
        "The user's notifications to mark read (at most 500; an id that is not theirs is a 404 and nothing changes). Absent or empty: all their unread ones in the workspace.",
    },
  },
  additionalProperties: false,
} as const;

export const PreferencesBodySchema = {
  type: 'object',
  properties: { emailCommentTagged: { type: 'boolean' }, emailReconnectRequired: { type: 'boolean' } },
  additionalProperties: false,
} as const;

/** Registered before the routes (OpenAPI names them `#/components/schemas/<$id>`). */
export const NOTIFICATIONS_SCHEMAS = [
  NotificationDataSchema,
  NotificationSchema,
  NotificationListSchema,
  MarkManyReadResponseSchema,
  NotificationPreferencesSchema,
] as const;
