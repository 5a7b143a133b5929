import type { FastifyInstance } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { NotificationsClient } from '../client.js';
import { sseBody, sseEvent, type LiveNotifications } from '../live.js';
import { notificationJson, pageMeta } from '../present.js';
import {
  ListQuerySchema,
  MarkManyReadBodySchema,
  MarkManyReadResponseSchema,
  NotificationListSchema,
  NotificationPreferencesSchema,
  NotificationSchema,
  PreferencesBodySchema,
} from '../schemas.js';

export const MARKED_READ_MESSAGE = 'Notifications marked as read';

// Also `users`: a user's own notifications and preferences, which every role of the workspace manages (a Viewer too),
// like their own account (tests/api/teams-role-matrix.test.ts holds the workspace's edit ranking to the other routes).
const common = { tags: ['notifications', 'users'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

/**
 * The signed-in user's notifications in the current workspace (platform-core §7): list, mark read (one, some or all),
 * mail preferences and the live stream. Any member may use them (a Viewer too: they are the user's own).
 */
export async function registerNotificationRoutes(
  app: FastifyInstance,
  { client, live, heartbeatMs }: { client: NotificationsClient; live: LiveNotifications; heartbeatMs: number },
): Promise<void> {
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });

  app.get<{ Querystring: { isRead?: string; page?: number; take?: number } }>(
    '/internal-notifications',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listNotifications',
        summary: "The signed-in user's notifications in the workspace, newest first, with unreadCount and readCount",
        querystring: ListQuerySchema,
        response: responses(200, ref(NotificationListSchema)),
      },
    },
    async (req) => {
      const r = await client.listNotifications({ isRead: req.query.isRead ?? '', page: req.query.page ?? 0, take: req.query.take ?? 0 }, headers(req));
      return { data: r.notifications.map(notificationJson), meta: pageMeta(r.page, r.take, r.total), unreadCount: r.unreadCount, readCount: r.readCount };
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/internal-notifications/mark-read/:id',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'markNotificationRead',
        summary: "Marks one of the user's notifications read (another user's or workspace's id: 404)",
        params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
        response: responses(200, ref(NotificationSchema)),
      },
    },
    async (req) => notificationJson((await client.markRead({ id: req.params.id }, headers(req))).notification),
  );

  app.patch<{ Body: { notificationIds?: string[] } | undefined }>(
    '/internal-notifications/mark-read',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'markNotificationsRead',
        summary: "Marks the named notifications read, or all the user's unread ones in the workspace when none are named",
        body: MarkManyReadBodySchema,
        response: responses(200, ref(MarkManyReadResponseSchema)),
      },
    },
    async (req) => {
      const r = await client.markManyRead({ notificationIds: req.body?.notificationIds ?? [] }, headers(req));
      return { message: MARKED_READ_MESSAGE, marked: r.marked, unreadCount: r.unreadCount };
    },
  );

  app.get(
    '/internal-notifications/preferences',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getNotificationPreferences',
        summary: "The user's mail preferences in the workspace",
        response: responses(200, ref(NotificationPreferencesSchema)),
      },
    },
    async (req) => {
      const p = (await client.getPreferences({}, headers(req))).preferences;
      return { emailCommentTagged: p?.emailCommentTagged ?? true, emailReconnectRequired: p?.emailReconnectRequired ?? true };
    },
  );

  app.patch<{ Body: { emailCommentTagged?: boolean; emailReconnectRequired?: boolean } | undefined }>(
    '/internal-notifications/preferences',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'updateNotificationPreferences',
        summary: 'Changes the mail preferences given (at least one); the others stay',
        body: PreferencesBodySchema,
        response: responses(200, ref(NotificationPreferencesSchema)),
      },
    },
    async (req) => {
      const p = (
        await client.updatePreferences(
          { emailCommentTagged: req.body?.emailCommentTagged, emailReconnectRequired: req.body?.emailReconnectRequired },
          headers(req),
        )
      ).preferences;
      return { emailCommentTagged: p?.emailCommentTagged ?? true, emailReconnectRequired: p?.emailReconnectRequired ?? true };
    },
  );

  app.get(
    '/internal-notifications/stream',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'streamNotifications',
        summary:
          "Server-sent events for the user's bell: `ready` once subscribed, then `notification` ({id, type}) for each new notification of theirs in the workspace. The request must accept text/event-stream (else 406); the bearer token travels in the Authorization header as on every route (the web app reads the stream with fetch).",
        response: {
          200: { description: 'An endless event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          default: responses(200, {}).default,
        },
      },
    },
    async (req, reply) => {
      if (!/\btext\/event-stream\b/.test(req.headers.accept ?? '')) {
        throw new HttpError(406, 'NOT_ACCEPTABLE', 'This route answers text/event-stream only', [
          { field: 'accept', message: 'accept must include text/event-stream' },
        ]);
      }
      const auth = authOf(req);
      const stream = sseBody(heartbeatMs);
      let stop: () => void;
      try {
        stop = await live.listen(auth.workspace?.id ?? '', auth.userId, (n) => stream.write(sseEvent('notification', n, n.id)));
      } catch (err) {
        stream.end();
        req.log.warn({ err }, 'live notifications unavailable');
        throw new HttpError(503, 'UNAVAILABLE', 'Live notifications are unavailable; try again shortly');
      }
      req.raw.on('close', () => {
        stop();
        stream.end();
      });
      // retry: how long a client waits before reconnecting after the stream drops.
      stream.write(`retry: 3000\n${sseEvent('ready', { workspaceId: auth.workspace?.id ?? '' })}`);
      reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
      return reply.send(stream.body);
    },
  );
}
