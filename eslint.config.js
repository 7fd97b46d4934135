// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A lean, type-aware rule set: rules that catch bugs (a promise nobody awaits, a promise where a callback returns void,
// `${object}` printing "[object Object]", throwing a non-Error). Style is Prettier's job, so no stylistic rules here.
export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/.turbo/**',
      '**/coverage/**',
      '**/src/generated/**',
      '**/migrations/**',
      'packages/api-types/src/api.ts',
      'web/test-results/**',
      'web/.dist-*/**',
      'web/dist-server/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.base],
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // tsc reports undefined names and unused locals (noUnusedLocals) with full type information.
      'no-undef': 'off',
      'no-unused-vars': 'off',
      'no-redeclare': 'off',
      'no-dupe-class-members': 'off',

      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-array-delete': 'error',
      '@typescript-eslint/no-duplicate-type-constituents': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['bench/map/page/**/*.ts', 'e2e/**/*.ts', 'faults/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Config files belong to no workspace's tsconfig: lint them without type information.
    files: ['**/vitest.config.ts', 'eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
