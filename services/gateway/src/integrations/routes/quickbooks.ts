import type { QuickBooksIntegration } from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import type { FastifyInstance } from 'fastify';
import { authOf, READ, WRITE } from '../../http/auth.js';
import { BEARER, idParams, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { QuickBooksClient } from '../quickbooks-client.js';
import {
  QuickBooksConnectBodySchema,
  QuickBooksDisconnectResponseSchema,
  QuickBooksIntegrationSchema,
  QuickBooksOAuthLinkSchema,
} from '../quickbooks-schemas.js';

const TAGS = ['integrations'];

export const quickBooksIntegrationJson = (i: QuickBooksIntegration | undefined) => ({
  id: i?.id ?? '',
  workspaceId: i?.workspaceId ?? '',
  realmId: i?.realmId ?? '',
  companyName: i?.companyName ?? '',
  connectedAt: i?.connectedAt ?? '',
  lastSyncedAt: i?.lastSyncedAt ?? '',
  isReconnectRequired: i?.isReconnectRequired ?? false,
  type: 'quickbooks' as const,
});

/** Spec §7 "Accounting package": /quickbook/integration*, each one QuickBooksService RPC. */
export async function registerQuickBooksRoutes(app: FastifyInstance, { client }: { client: QuickBooksClient }): Promise<void> {
  const headers = (req: Parameters<typeof authOf>[0]) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get(
    '/quickbook/integration/oauth-link',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'getQuickBooksOAuthLink',
        summary: "Intuit's authorize link to open (with a one-time state of the workspace)",
        response: responses(200, ref(QuickBooksOAuthLinkSchema)),
      },
    },
    async (req) => {
      const r = await client.getQuickBooksOAuthLink({}, headers(req));
      return { url: r.url, state: r.state };
    },
  );

  app.post<{ Body: { code?: string; state?: string; realmId?: string } }>(
    '/quickbook/integration/connect',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'connectQuickBooks',
        summary: "Connects the QuickBooks company of the callback's code, state and realmId",
        body: QuickBooksConnectBodySchema,
        response: responses(200, ref(QuickBooksIntegrationSchema)),
      },
    },
    async (req) => {
      const r = await client.connectQuickBooks({ code: req.body.code ?? '', state: req.body.state ?? '', realmId: req.body.realmId ?? '' }, headers(req));
      return quickBooksIntegrationJson(r.integration);
    },
  );

  app.get(
    '/quickbook/integration',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getQuickBooksIntegration',
        summary: 'The connected QuickBooks company (404 when none)',
        response: responses(200, ref(QuickBooksIntegrationSchema)),
      },
    },
    async (req) => quickBooksIntegrationJson((await client.getQuickBooksIntegration({}, headers(req))).integration),
  );

  app.delete<{ Params: { id: string } }>(
    '/quickbook/integration/:id',
    {
      config: WRITE,
      schema: {
        ...common,
        operationId: 'disconnectQuickBooks',
        summary: 'Revokes the grant at Intuit and forgets the connection',
        params: idParams,
        response: responses(200, ref(QuickBooksDisconnectResponseSchema)),
      },
    },
    async (req) => ({ id: (await client.disconnectQuickBooks({ id: req.params.id }, headers(req))).id }),
  );
}
