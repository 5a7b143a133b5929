import { createLogger, loadConfig, runUntilSignal } from '@ledgerline/platform';
import { reportingConfigSchema } from './config.js';
import { createReportingService } from './service.js';

const config = loadConfig(reportingConfigSchema);
const logger = createLogger('reporting', config.LOG_LEVEL);
const service = await createReportingService(config, { logger });
const url = await service.listen();
logger.info({ url }, 'reporting listening');
runUntilSignal(logger, () => service.stop());
