import type { FastifyInstance } from 'fastify';
import { registerDashboardRoutes } from './dashboard.js';

/** Routes answered from other routes rather than from one upstream: the dashboard's widgets in one request. */
export function registerComposite(app: FastifyInstance): void {
  registerDashboardRoutes(app);
}
