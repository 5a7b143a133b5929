import { buildGateway } from './app.js';
import { gatewayConfigSchema } from './config.js';

/**
 * The gateway's OpenAPI 3.1 document, built from the route schemas without listening or reading the
 * environment (defaults only), so the generated file is the same on every machine.
 */
export async function openApiDocument(): Promise<object> {
  const app = await buildGateway({ config: gatewayConfigSchema.parse({ LOG_LEVEL: 'silent' }), redis: null });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}
