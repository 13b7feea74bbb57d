/**
 * The one boot path of the server (main.ts) and the worker (worker.ts): the configuration
 * from the environment (a clear message and exit 1 when it is wrong), and an orderly stop on
 * SIGINT/SIGTERM (exit 0 once stopped, 1 when stopping failed).
 */
import { ConfigError, loadConfig, type Config } from './env.ts';

export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

interface BootLog {
  info(message: string): void;
  error(fields: { err: unknown }, message: string): void;
}

/** Runs `stop` once on the first SIGINT or SIGTERM, then exits. */
export function stopOnSignals(log: BootLog, what: string, stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal} received: ${what}`);
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
