import type { FastifyInstance } from 'fastify';
import { authOf, READ, WRITE } from '../../http/auth.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { IntegrationsClient } from '../client.js';
import { stripeAccountJson, syncStatusJson } from '../present.js';
import {
  StripeAccountSchema,
  StripeConnectBodySchema,
  StripeConnectResponseSchema,
  StripeDisconnectResponseSchema,
  StripeOAuthLinkQuerySchema,
  StripeOAuthLinkSchema,
  StripeSyncJobSchema,
  StripeSyncStatusSchema,
  StripeWebhookResponseSchema,
} from '../schemas.js';

const TAGS = ['integrations'];

/** Spec §7 "Payment processor": /stripe-integrate/*, each one IntegrationsService RPC; and Stripe's webhook. */
export async function registerStripeRoutes(app: FastifyInstance, { client }: { client: IntegrationsClient }): Promise<void> {
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get<{ Querystring: { redirectUri?: string } }>(
    '/stripe-integrate/oauth-link',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'getStripeOAuthLink',
        summary: 'The Stripe Connect link to open',
        querystring: StripeOAuthLinkQuerySchema,
        response: responses(200, ref(StripeOAuthLinkSchema)),
      },
    },
    async (req) => {
      const r = await client.getStripeOAuthLink({ redirectUri: req.query.redirectUri ?? '' }, headers(req));
      return { url: r.url };
    },
  );

  app.post<{ Body: { scope?: string; code?: string } }>(
    '/stripe-integrate/connect',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'connectStripe',
        summary: "Connects the Stripe account of the callback's code and starts its first sync",
        body: StripeConnectBodySchema,
        response: responses(200, ref(StripeConnectResponseSchema)),
      },
    },
    async (req) => {
      const r = await client.connectStripe({ scope: req.body.scope ?? '', code: req.body.code ?? '' }, headers(req));
      return { account: stripeAccountJson(r.account), jobId: r.jobId };
    },
  );

  app.post(
    '/stripe-integrate/sync',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'syncStripe',
        summary: 'Starts an incremental sync of the connected Stripe account',
        response: responses(202, ref(StripeSyncJobSchema)),
      },
    },
    async (req, reply) => {
      const r = await client.startStripeSync({}, headers(req));
      reply.code(202);
      return { jobId: r.jobId, status: r.status };
    },
  );

  app.get(
    '/stripe-integrate/sync-status',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getStripeSyncStatus',
        summary: 'The latest Stripe sync and the objects synced',
        response: responses(200, ref(StripeSyncStatusSchema)),
      },
    },
    async (req) => syncStatusJson(await client.getStripeSyncStatus({}, headers(req))),
  );

  app.get(
    '/stripe-integrate/account',
    {
      config: READ,
      schema: { ...common, operationId: 'getStripeAccount', summary: 'The connected Stripe account', response: responses(200, ref(StripeAccountSchema)) },
    },
    async (req) => stripeAccountJson((await client.getStripeAccount({}, headers(req))).account),
  );

  app.delete(
    '/stripe-integrate/disconnect',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'disconnectStripe',
        summary: 'Disconnects the Stripe account and forgets its synced data',
        response: responses(200, ref(StripeDisconnectResponseSchema)),
      },
    },
    async (req) => {
      const r = await client.disconnectStripe({}, headers(req));
      return { stripeAccountId: r.stripeAccountId };
    },
  );

  // Stripe calls this one: no session; the service verifies Stripe-Signature over the exact bytes.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post<{ Body: Buffer }>(
      '/stripe-integrate/webhook',
      {
        schema: {
          operationId: 'stripeWebhook',
          summary: 'Stripe Connect webhooks (verified with the Stripe-Signature header; a bad signature is a 400)',
          tags: TAGS,
          security: [],
          headers: { type: 'object', properties: { 'stripe-signature': { type: 'string', description: 't=<unix>,v1=<HMAC-SHA256 hex>' } } },
          response: responses(200, ref(StripeWebhookResponseSchema)),
        },
      },
      async (req) => {
        const raw = req.headers['stripe-signature'];
        const signature = Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? '');
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const r = await client.handleStripeWebhook({ body: new Uint8Array(body), signature });
        return { outcome: r.outcome };
      },
    );
  });
}
