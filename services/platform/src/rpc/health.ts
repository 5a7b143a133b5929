import type { FastifyInstance } from 'fastify';
import { metricsRegistry } from './metrics.js';

export type ReadinessChecks = Record<string, () => Promise<unknown>>;

/**
 * /healthz: the process is alive. /readyz: its dependencies answer (each check within 2 s), so a
 * load balancer stops sending traffic while the database or bus is away. /metrics: Prometheus.
 */
export function registerHealth(app: FastifyInstance, service: string, checks: ReadinessChecks): void {
  app.get('/healthz', async () => ({ status: 'ok', service }));
  app.get('/readyz', async (_req, reply) => {
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref())]);
          results[name] = 'ok';
        } catch (err) {
          ready = false;
          results[name] = (err as Error).message || 'failed';
        }
      }),
    );
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', service, checks: results });
  });
  app.get('/metrics', async (_req, reply) => reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics()));
}
