// Operations on the read model, run beside (rebuild: instead of) the service:
//   node dist/cli.js rebuild            stop the service first; empties the balances, replays entry.posted
//                                       from the start of the stream, waits until quiet, then checks
//   node dist/cli.js check [ws ...]     compares the balances with the ledger's (exit 1 on a difference)
import { createLogger, loadConfig } from '@ledgerline/platform';
import { reportingConfigSchema } from './config.js';
import { createReportingService } from './service.js';

const [command, ...args] = process.argv.slice(2);
const config = loadConfig(reportingConfigSchema);
const logger = createLogger('reporting-cli', config.LOG_LEVEL);
if (command !== 'rebuild' && command !== 'check') {
  logger.error('usage: cli.js rebuild | check [workspaceId ...]');
  process.exit(2);
}
const service = await createReportingService(config, { logger });
let failed = false;
try {
  if (command === 'rebuild') {
    const generation = await service.rebuild();
    await service.idle(2_000);
    logger.info({ generation, applied: service.projector?.appliedCount ?? 0 }, 'replay finished');
  }
  const results = await service.check(args.length ? args : undefined);
  failed = results.some((r) => !r.ok);
  for (const r of results)
    logger.info(
      { workspaceId: r.workspaceId, ok: r.ok, months: r.months, differences: r.differences.length, dailyMismatches: r.dailyMismatches.length },
      'check',
    );
} finally {
  await service.stop();
}
process.exit(failed ? 1 : 0);
