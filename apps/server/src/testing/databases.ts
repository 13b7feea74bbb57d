/** Tests that run on both drivers: the test run's PostgreSQL database and a fresh PGlite directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase, type Database } from '../db/database.ts';

export function bothDatabases(tmpPrefix: string): { databases: { name: string; open: () => Promise<Database> }[]; removeDirs: () => void } {
  const dirs: string[] = [];
  return {
    databases: [
      { name: 'PostgreSQL', open: () => createDatabase({ databaseUrl: process.env.DATABASE_URL!, pgliteDir: '' }) },
      {
        name: 'PGlite',
        open: () => {
          const dir = mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
          dirs.push(dir);
          return createDatabase({ databaseUrl: undefined, pgliteDir: dir });
        },
      },
    ],
    removeDirs: () => {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}
