import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { requireTenant, withInputRules } from '@ledgerline/platform';
import {
  ConnectQuickBooksResponseSchema,
  DisconnectQuickBooksResponseSchema,
  GetQuickBooksIntegrationResponseSchema,
  GetQuickBooksOAuthLinkResponseSchema,
  QuickBooksIntegrationSchema,
  QuickBooksService as QuickBooksRpc,
} from '@ledgerline/proto/integrations/v1/quickbooks_pb';
import type { QuickBooksIntegration, QuickBooksIntegrationView } from './integration.js';

const iso = (d: Date | null | undefined): string => (d ? d.toISOString() : '');

const integrationMessage = (v: QuickBooksIntegrationView) =>
  create(QuickBooksIntegrationSchema, {
    id: v.id,
    workspaceId: v.workspaceId,
    realmId: v.realmId,
    companyName: v.companyName,
    connectedAt: iso(v.connectedAt),
    lastSyncedAt: iso(v.lastSyncedAt),
    isReconnectRequired: v.isReconnectRequired,
    type: v.type,
  });

/** The QuickBooksService handlers (quickbooks.proto): input rules, the caller's tenancy, one use case. */
export function quickBooksRoutes(quickbooks: QuickBooksIntegration): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      QuickBooksRpc,
      withInputRules(QuickBooksRpc, {
        async getQuickBooksOAuthLink(_req, ctx) {
          return create(GetQuickBooksOAuthLinkResponseSchema, await quickbooks.oauthLink(requireTenant(ctx)));
        },
        async connectQuickBooks(req, ctx) {
          const v = await quickbooks.connect(requireTenant(ctx), { code: req.code, state: req.state, realmId: req.realmId });
          return create(ConnectQuickBooksResponseSchema, { integration: integrationMessage(v) });
        },
        async getQuickBooksIntegration(_req, ctx) {
          return create(GetQuickBooksIntegrationResponseSchema, { integration: integrationMessage(await quickbooks.integration(requireTenant(ctx))) });
        },
        async disconnectQuickBooks(req, ctx) {
          return create(DisconnectQuickBooksResponseSchema, { id: await quickbooks.disconnect(requireTenant(ctx), req.id) });
        },
      }),
    );
  };
}
