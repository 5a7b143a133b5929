import { createLogger, loadConfig, runUntilSignal } from '@ledgerline/platform';
import { assertProductionSecrets, identityConfigSchema } from './config.js';
import { createIdentityService } from './service.js';

const config = loadConfig(identityConfigSchema);
assertProductionSecrets(config);
const logger = createLogger('identity', config.LOG_LEVEL);
const service = await createIdentityService(config, { logger });
const url = await service.listen();
logger.info({ url }, 'identity listening');
runUntilSignal(logger, () => service.stop());
