import type { FastifyReply } from 'fastify';

/**
 * Security headers on every answer of the gateway (ASVS V14): the API answers JSON, files and nothing a
 * browser should render, frame, sniff or cache. Set in onSend for every routed answer (errors included)
 * and by the framework-error handlers for the answers fastify makes before routing.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Adds the security headers; `no-store` unless the route chose its own caching. */
export function applySecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) reply.header(name, value);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
