import { ConfigError, createLogger, loadConfig, runUntilSignal } from '@ledgerline/platform';
import { bankingConfigSchema } from './config.js';
import { createBankingService } from './service.js';

try {
  const config = loadConfig(bankingConfigSchema);
  const logger = createLogger('banking', config.LOG_LEVEL);
  const service = await createBankingService(config, { logger });
  const url = await service.listen();
  logger.info({ url, plaid: config.PLAID_BASE_URL }, 'banking listening');
  runUntilSignal(logger, () => service.stop());
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
