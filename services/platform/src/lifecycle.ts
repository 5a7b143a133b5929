import type { Logger } from 'pino';

/**
 * Runs a service until SIGTERM/SIGINT, then stops it in reverse order of start. A second signal, or a
 * stop that takes over 15 s, exits at once.
 */
export function runUntilSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'stopping');
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
