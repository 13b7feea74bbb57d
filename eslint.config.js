// Type-aware lint for the whole monorepo (CONVENTIONS.md §10).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The layers (docs/ARCHITECTURE.md), as import restrictions. Test files and composition roots
// (app.ts, main.ts, worker.ts, jobs/testing) wire the layers together and are not restricted.
const OTHER_MODULE_INTERNALS = {
  regex: '^\\.\\./[a-z-]+/(?!index\\.ts$|[a-z-]+\\.service\\.ts$|[a-z-]+\\.ports\\.ts$)',
  message: "A module uses another module only through its service, index.ts or ports (not its repository, presenter, routes or helpers).",
};
const JOBS_INTERNALS = {
  regex: '^\\.\\./\\.\\./(jobs/(?!ports\\.ts$|analysis-engine\\.ts$)|app\\.ts$|main\\.ts$|worker\\.ts$)',
  message: 'Modules reach the jobs only through jobs/ports.ts (and the engine port, jobs/analysis-engine.ts); app.ts wires them.',
};
const moduleLayers = [OTHER_MODULE_INTERNALS, JOBS_INTERNALS];
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'bench/results/**',
      '**/*.js',
      '**/*.mjs',
      '**/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        // One program for every Node file (tsconfig.lint.json), one for the web app, one for the
        // browser tests: per-workspace programs parsed and checked the shared sources again.
        project: ['./tsconfig.lint.json', './apps/web/tsconfig.json', './e2e/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/require-array-sort-compare': ['error', { ignoreStringArrays: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    files: ['packages/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['@rarelens/server', '@rarelens/web', '@rarelens/cli'].map((name) => ({ name, message: 'Packages never import apps.' })),
          patterns: [{ regex: '(^|/)apps/', message: 'Packages never import apps.' }],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: TEST_FILES,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: moduleLayers }] },
  },
  {
    files: ['apps/server/src/modules/*/*.repository.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...moduleLayers,
            { regex: '^(?!\\.\\./\\.\\./db/)\\.', message: 'A repository imports only the database layer (src/db).' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/jobs/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)modules/', message: 'Jobs reach the modules only through the ports of jobs/ports.ts.' }] },
      ],
    },
  },
  {
    files: ['apps/web/src/features/*/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)[a-z-]+/(?!index\\.ts$)', message: "A feature uses another feature only through its index.ts (not its pages, components or helpers)." },
            { regex: '^\\.\\./\\.\\./features/', message: 'A feature uses another feature only through ../<feature>/index.ts.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(features|app)/', message: 'lib and components are below the features and the app shell: they never import them.' }] },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // CLIs, benchmarks and scripts talk to the terminal on purpose.
    files: ['apps/cli/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
