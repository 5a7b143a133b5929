import { str } from '../http/schemas.js';

/** The REST shapes of the /quickbook/* routes (documents-parties-integrations §3, §7), as JSON Schema. */
const instant = { type: 'string', description: 'ISO-8601 UTC instant; empty when not yet.' } as const;

export const QuickBooksIntegrationSchema = {
  $id: 'QuickBooksIntegration',
  type: 'object',
  description: "The workspace's accounting-package (QuickBooks Online) connection.",
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The connection.' },
    workspaceId: { type: 'string', format: 'uuid' },
    realmId: { type: 'string', description: "QuickBooks' company id." },
    companyName: str,
    connectedAt: instant,
    lastSyncedAt: instant,
    isReconnectRequired: { type: 'boolean', description: 'Intuit refused the refresh token: connect again.' },
    type: { type: 'string', enum: ['quickbooks'] },
  },
  required: ['id', 'workspaceId', 'realmId', 'companyName', 'connectedAt', 'lastSyncedAt', 'isReconnectRequired', 'type'],
  additionalProperties: false,
} as const;

export const QuickBooksOAuthLinkSchema = {
  $id: 'QuickBooksOAuthLink',
  type: 'object',
  description: "Intuit's authorize page; Intuit sends the user back to the app's redirect URI with code, state and realmId.",
  properties: { url: str, state: { type: 'string', description: 'The one-time state the link carries (10 minutes).' } },
  required: ['url', 'state'],
  additionalProperties: false,
} as const;

export const QuickBooksDisconnectResponseSchema = {
  $id: 'QuickBooksDisconnectResponse',
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' } },
  required: ['id'],
  additionalProperties: false,
} as const;

export const QuickBooksConnectBodySchema = {
  type: 'object',
  // Shape only (as every body, services/gateway/src/http/schemas.ts): the service owns the rules and their messages.
  properties: {
    code: { type: 'string', maxLength: 512, description: "The callback's authorization code." },
    state: { type: 'string', maxLength: 200, description: "The callback's state: the link's, used once." },
    realmId: { type: 'string', maxLength: 32, description: "The callback's realmId (the company consented to)." },
  },
  additionalProperties: false,
} as const;

/** Registered before the routes (OpenAPI names them `#/components/schemas/<$id>`). */
export const QUICKBOOKS_SCHEMAS = [QuickBooksIntegrationSchema, QuickBooksOAuthLinkSchema, QuickBooksDisconnectResponseSchema] as const;
