import type { FastifyInstance } from 'fastify';
import { addSchemas } from '../http/hardening.js';
import type { RouteContext } from '../upstreams.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerTeamRoutes } from './routes/teams.js';
import { IDENTITY_SCHEMAS } from './schemas.js';

/** Identity's routes: sign-up, sign-in, codes, passwords, onboarding and the user (spec §7 "Auth"). */
export function registerIdentity(app: FastifyInstance, { clients, config, authenticator }: RouteContext): void {
  addSchemas(app, IDENTITY_SCHEMAS);
  registerAuthRoutes(app, {
    identity: clients.identity,
    firm: clients.firm,
    authenticator,
    limits: { login: config.RATE_LIMIT_LOGIN_MAX, code: config.RATE_LIMIT_CODE_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS },
  });
}

/** Identity's team routes: workspaces, organization, members, roles and invites (with the firm's invite link). */
export function registerIdentityTeams(app: FastifyInstance, { clients, config, authenticator }: RouteContext): void {
  registerTeamRoutes(app, {
    identity: clients.identity,
    firm: clients.firm,
    authenticator,
    codeLimit: { max: config.RATE_LIMIT_CODE_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS },
  });
}
