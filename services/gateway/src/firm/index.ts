import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../upstreams.js';
import { registerFirmRoutes } from './routes/firm.js';

/** The accounting firm's routes (`/accounting-firm/*`): its members, invites and client organizations. */
export async function registerFirm(app: FastifyInstance, { clients }: RouteContext): Promise<void> {
  await registerFirmRoutes(app, { client: clients.firm, identity: clients.identity });
}
