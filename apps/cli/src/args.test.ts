import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCommandArgs, runCommand, UsageError, wantsHelp } from './args.ts';
import { run as analyze } from './commands/analyze.ts';
import { run as annotate } from './commands/annotate.ts';
import { run as kb } from './commands/kb.ts';
import { run as orders } from './commands/orders.ts';
import { run as phenome } from './commands/phenome.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const OPTIONS = { vcf: { type: 'string' }, quiet: { type: 'boolean' } } as const;

function usageMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandArgs', () => {
  it('returns the typed values of known options', () => {
    const { values } = parseCommandArgs(['--vcf', 'a.vcf', '--quiet'], { options: OPTIONS });
    expect(values).toEqual({ vcf: 'a.vcf', quiet: true });
    expect(parseCommandArgs(['--vcf=b.vcf'], { options: OPTIONS }).values.vcf).toBe('b.vcf');
  });

  it('names an unknown option and lists the known ones', () => {
    expect(usageMessage(() => parseCommandArgs(['--vcf', 'a', '--vfc', 'b'], { options: OPTIONS }))).toBe("unknown option '--vfc' (options: --vcf, --quiet)");
  });

  it('names an option whose value is missing, at the end or before another option', () => {
    expect(usageMessage(() => parseCommandArgs(['--vcf'], { options: OPTIONS }))).toBe('--vcf needs a value');
    expect(usageMessage(() => parseCommandArgs(['--vcf', '--quiet'], { options: OPTIONS }))).toBe('--vcf needs a value');
  });

  it('rejects a value given to a flag and a stray argument', () => {
    expect(usageMessage(() => parseCommandArgs(['--quiet=yes'], { options: OPTIONS }))).toBe('--quiet takes no value');
    expect(usageMessage(() => parseCommandArgs(['a.vcf'], { options: OPTIONS }))).toBe("unexpected argument 'a.vcf'");
    expect(parseCommandArgs(['x', 'y'], { options: OPTIONS, allowPositionals: true }).positionals).toEqual(['x', 'y']);
  });
});

describe('runCommand', () => {
  it('prints the usage on --help or -h (exit 0) without running the command', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const body = vi.fn(() => Promise.resolve(0));
    expect(await runCommand('demo', 'Usage: demo', ['--vcf', 'x', '-h'], body)).toBe(0);
    expect(body).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('Usage: demo');
    expect(wantsHelp(['--', '--help'])).toBe(false);
  });

  it('turns a UsageError into exit code 2 with the message and the usage; other errors pass through', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(
      await runCommand('demo', 'Usage: demo', [], () => Promise.reject(new UsageError('--vcf is required'))),
    ).toBe(2);
    expect(err).toHaveBeenCalledWith('rarelens demo: --vcf is required\n\nUsage: demo');
    await expect(runCommand('demo', 'Usage: demo', [], () => Promise.reject(new RangeError('boom')))).rejects.toThrow('boom');
  });
});

describe('every rarelens command', () => {
  const commands = { analyze, annotate, kb, orders, phenome };

  it.each(Object.entries(commands))('%s: --help prints its usage and exits 0', async (name, run) => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(await run(['--help'])).toBe(0);
    expect(String(log.mock.calls[0]?.[0])).toMatch(new RegExp(`^Usage:\\n  rarelens ${name} `));
  });

  it.each([
    ['analyze', analyze, ['--hpo', 'HP:0001250', '--out', 'x.json', '--verbose'], "unknown option '--verbose'"],
    ['analyze', analyze, ['--hpo', 'HP:0001250', '--out'], '--out needs a value'],
    ['annotate', annotate, ['--vcf', 'a.vcf', '--out', 'a.jsonl', '--fromat', 'vcf'], "unknown option '--fromat'"],
    ['kb', kb, ['build', '--source', 'x'], "unknown option '--source' (options: --sources, --out)"],
    ['kb', kb, ['rebuild'], "unknown action 'rebuild' (build or info)"],
    ['orders', orders, ['list', '--status'], '--status needs a value'],
    ['orders', orders, ['activate'], 'activate needs exactly one ORDER_ID'],
    ['phenome', phenome, ['--text', 'x', '--whole-text=yes'], '--whole-text takes no value'],
  ] as const)('%s %j: exit 2 naming the problem', async (name, run, argv, message) => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run([...argv])).toBe(2);
    const printed = String(err.mock.calls[0]?.[0]);
    expect(printed.startsWith(`rarelens ${name}: ${message}`)).toBe(true);
    expect(printed).toContain('Usage:');
  });
});
