import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and web files run on every core (vitest's default leaves one idle: on CI's 2-core machine
// that is a single worker). Measured on 2 cores, loaded: unit 205 s -> 135 s, web 205 s -> 151 s.
const workers = availableParallelism();

// Three projects: fast unit tests beside the code, integration tests against a real
// PostgreSQL (each run creates and drops its own database), browser tests in Debian Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'bench/lib/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/*.e2e.test.ts', '**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: workers,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          maxWorkers: workers,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/*/src/**/*.int.test.ts', 'apps/*/test/**/*.int.test.ts', 'packages/*/src/**/*.int.test.ts'],
          globalSetup: ['./scripts/test-database.setup.ts'],
          setupFiles: ['./scripts/test-database.worker.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One file at a time. Two at a time (each worker on its own database copy) was tried in a
          // clean-clone CI at load 20-27: browser waits timed out; not shown to pass yet.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: ['./scripts/test-database.setup.ts'],
          setupFiles: ['./scripts/test-database.worker.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
