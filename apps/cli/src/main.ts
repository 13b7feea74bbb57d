/**
 * `rarelens` command line. Each sub-command lives in src/commands/<name>.ts and exports
 * `run(args: string[]): Promise<number>` (the exit code) and parses its options with src/args.ts
 * (node:util parseArgs: unknown options and missing values are usage errors, exit code 2).
 */
const COMMANDS: Record<string, { file: string; summary: string }> = {
  kb: { file: './commands/kb.ts', summary: 'kb build --sources DIR --out DIR    build the knowledge base' },
  annotate: { file: './commands/annotate.ts', summary: 'annotate --vcf FILE --out FILE.jsonl   annotate and classify variants' },
  analyze: { file: './commands/analyze.ts', summary: 'analyze --vcf FILE --hpo HP:..   rank diseases, genes and variants' },
  phenome: { file: './commands/phenome.ts', summary: 'phenome --text "..."   clinical text to HPO terms' },
  orders: { file: './commands/orders.ts', summary: 'orders list | activate ORDER_ID   record bank transfers of orders' },
};

interface CommandModule {
  run(args: string[]): Promise<number>;
}

function usage(): string {
  return ['Usage: rarelens <command> [options]', '', ...Object.values(COMMANDS).map((c) => `  ${c.summary}`), '', "'rarelens <command> --help' lists a command's options."].join('\n');
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  if (!name || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    console.error(`rarelens: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const mod = (await import(cmd.file)) as CommandModule;
  return mod.run(rest);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`rarelens: ${err instanceof Error ? err.message : String(err)}`);
    if (process.env.RARELENS_DEBUG && err instanceof Error) console.error(err.stack);
    process.exitCode = 1;
  },
);
