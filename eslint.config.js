import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tmp/**', 'data/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-default-export': 'off',
      'no-warning-comments': ['error', { terms: ['todo', 'fixme'], location: 'start' }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          tsconfig: { configFile: './apps/web/tsconfig.json' },
        }),
      ],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Layers flow one way: shared → components/lib → features → app; a feature never reaches into another.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/components', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/lib', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            ...['incidents', 'health', 'catalog', 'topology', 'playbooks', 'agents', 'jobs', 'integrations', 'notifications', 'connections', 'settings', 'identity', 'logs', 'auth', 'feature-flags', 'preferences'].map(
              (feature) => ({
                target: `./apps/web/src/features/${feature}`,
                from: './apps/web/src/features',
                except: [`./${feature}`],
              }),
            ),
          ],
        },
      ],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: { 'import-x/no-cycle': 'error' },
  },
);
