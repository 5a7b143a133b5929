import type { GatewayConfig } from './config.js';
import type { Authenticator } from './http/auth.js';
import { bankingClient } from './banking/client.js';
import { documentsClients } from './documents/client.js';
import { firmClient } from './firm/client.js';
import { identityClient } from './identity/client.js';
import { ledgerClient } from './ledger/client.js';
import { partiesClient } from './parties/client.js';
import { reportingClient } from './reporting/client.js';
import { integrationsClient } from './integrations/client.js';
import { notificationsClient } from './notifications/client.js';
import { billingClient } from './billing/client.js';

/**
 * The Connect clients of every upstream service, each built once by its folder's `client.ts` and shared by every
 * route that calls it (banking's accounts ask the ledger too; the transaction drawer asks identity and documents).
 * A new service adds one line here (`npm run new:service` writes it).
 */
export function upstreamClients(config: GatewayConfig) {
  return {
    identity: identityClient(config),
    banking: bankingClient(config),
    ledger: ledgerClient(config),
    reporting: reportingClient(config),
    firm: firmClient(config),
    parties: partiesClient(config),
    documents: documentsClients(config),
    integrations: integrationsClient(config),
    notifications: notificationsClient(config),
    billing: billingClient(config),
  };
}

export type Upstreams = ReturnType<typeof upstreamClients>;

/** What each folder's `register…(app, context)` gets: the clients, the settings and the session check. */
export interface RouteContext {
  clients: Upstreams;
  config: GatewayConfig;
  authenticator: Authenticator;
}
