export { buildGateway, type GatewayDeps } from './app.js';
export { gatewayConfigSchema, loadGatewayConfig, type GatewayConfig } from './config.js';
export { openApiDocument } from './openapi.js';
