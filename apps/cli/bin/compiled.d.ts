/** The bundle's path, or null when the command is not compiled or the bundle is stale. */
export function compiledCommand(name: string | undefined, cliDir: string): string | null;
