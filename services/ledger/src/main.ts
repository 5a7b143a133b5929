import { createLogger, loadConfig, runUntilSignal } from '@ledgerline/platform';
import { ledgerConfigSchema } from './config.js';
import { createLedgerService } from './service.js';

const config = loadConfig(ledgerConfigSchema);
const logger = createLogger('ledger', config.LOG_LEVEL);
const service = await createLedgerService(config, { logger });
const url = await service.listen();
logger.info({ url }, 'ledger listening');
runUntilSignal(logger, () => service.stop());
