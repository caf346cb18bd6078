import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      '.next',
      '.data',
      'src/generated',
      'packages/*/dist',
      // Generated from the OpenAPI document (npm run sdk:generate).
      'packages/client/src/openapi.ts',
      'test-results',
      'playwright-report',
      'next-env.d.ts',
      '*.config.*js',
      '*.config.mjs',
      'scripts/*.mjs',
      'server.js',
      '.dependency-cruiser.cjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  // PGlite's thread is plain JavaScript loaded by path (src/server/platform/db/pglite-proxy.ts): linted
  // without type information.
  // The same for what server.js loads before anything is built: the runtime check, the listening socket's copies.
  {
    files: [
      'src/server/platform/db/pglite-thread.mjs',
      'src/server/platform/http/listening-copies.mjs',
      'src/server/platform/runtime.mjs',
    ],
    ...tseslint.configs.disableTypeChecked,
  },
);
