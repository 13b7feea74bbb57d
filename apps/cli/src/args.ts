/**
 * Argument parsing for every `rarelens` command: node:util `parseArgs` in strict mode, its
 * errors turned into short messages that name the option, and one way to print usage.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options that each take one string value: `stringOptions('vcf', 'out')`. */
export function stringOptions<const K extends string>(...names: K[]): Record<K, { type: 'string' }> {
  return Object.fromEntries(names.map((n) => [n, { type: 'string' }])) as Record<K, { type: 'string' }>;
}

/** The long names of the options, for "unknown option" messages. */
function optionList(options: Options): string {
  return Object.keys(options)
    .map((k) => `--${k}`)
    .join(', ');
}

/** Rewrites a parseArgs error (ERR_PARSE_ARGS_*) as a UsageError naming the option or argument. */
function usageErrorOf(err: unknown, options: Options): unknown {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  const long = /--([\w-]+)/.exec(message)?.[0];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const name = /option '([^']+)'/i.exec(message)?.[1] ?? message;
      return new UsageError(`unknown option '${name}' (options: ${optionList(options)})`);
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return new UsageError(`${long ?? message} takes no value`);
      // "argument missing" (last word) or "argument is ambiguous" (followed by another option).
      return new UsageError(`${long ?? message} needs a value`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const arg = /argument '([^']*)'/.exec(message)?.[1] ?? message;
      return new UsageError(`unexpected argument '${arg}'`);
    }
    default:
      return err;
  }
}

/**
 * Parses `argv` against `config.options` (strict: unknown options, missing values and, unless
 * `allowPositionals`, stray arguments are UsageErrors).
 */
export function parseCommandArgs<const T extends { options: Options; allowPositionals?: boolean }>(argv: readonly string[], config: T) {
  try {
    return parseArgs({ ...config, args: [...argv], strict: true });
  } catch (err) {
    throw usageErrorOf(err, config.options);
  }
}

/** True when the user asked for help (`--help` or `-h` before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * Runs a command body with the shared conventions: `--help` prints `usage` (exit 0); a
 * UsageError prints `rarelens <name>: <message>` and the usage (exit 2).
 */
export async function runCommand(name: string, usage: string, argv: readonly string[], body: () => Promise<number>): Promise<number> {
  if (wantsHelp(argv)) {
    console.log(usage);
    return 0;
  }
  try {
    return await body();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`rarelens ${name}: ${err.message}\n\n${usage}`);
    return 2;
  }
}
