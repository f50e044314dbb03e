import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const root = path.dirname(fileURLToPath(import.meta.url));

/** The folders in `dir`, read when the config loads so a new feature or module is zoned without editing this file. */
function subfolders(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
}

const TYPESCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

// Without these, import-x skips every .ts/.tsx file it reaches while following imports, so no-cycle and the zones
// silently see nothing.
function typescriptImports(tsconfig) {
  return {
    'import-x/extensions': [...TYPESCRIPT_EXTENSIONS, '.js', '.mjs', '.cjs'],
    'import-x/parsers': { '@typescript-eslint/parser': TYPESCRIPT_EXTENSIONS },
    'import-x/resolver-next': [
      createNodeResolver({
        extensions: [...TYPESCRIPT_EXTENSIONS, '.js', '.mjs', '.json'],
        tsconfig: { configFile: path.join(root, tsconfig) },
      }),
    ],
  };
}

const KEBAB_WORDS = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** File names are lower-case words joined by hyphens; dots only separate suffixes such as `.test.ts` or `.d.ts`. */
const kebabCaseFileName = {
  meta: {
    type: 'suggestion',
    schema: [],
    messages: { kebab: 'File name "{{name}}" is not kebab-case: use lower-case words joined by hyphens.' },
  },
  create(context) {
    return {
      Program() {
        const name = path.basename(context.filename);
        if (name.split('.').every((part) => KEBAB_WORDS.test(part))) return;
        context.report({ loc: { line: 1, column: 0 }, messageId: 'kebab', data: { name } });
      },
    };
  },
};

const web = './apps/web/src';
const webFeatures = subfolders('apps/web/src/features');

/** Every `api` folder under the web features, with the get-*.ts calls in it, read when the config loads. */
function apiCallFolders(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory() && entry.name === 'api')
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .map((folder) => ({ folder, calls: readdirSync(path.join(root, folder)).filter((name) => /^get-.*\.ts$/.test(name)) }))
    .filter(({ calls }) => calls.length > 0);
}
const webApiCalls = apiCallFolders('apps/web/src/features');

const server = './apps/server/src';
const serverModules = subfolders('apps/server/src/modules');
// Inside auth/ (ADR 0063): shared/ is what every flow stands on, sessions/ and factors/ build on it, and each other
// folder is a flow, read from the folder list like the modules, that never imports another flow.
const authBases = ['shared', 'sessions', 'factors'];
const authFlows = subfolders('apps/server/src/auth').filter((folder) => !authBases.includes(folder));
const authFolder = (folder) => `${server}/auth/${folder}`;
const moduleEntries = serverModules.map((module) => `./${module}/index.ts`);
// Wires the modules together (routes, CLI, demo data, benchmarks), so it may use any module's public entry.
const compositionRoot = ['app.ts', 'plugins.ts', 'cli.ts', 'main.ts', 'seed', 'bench'].map((entry) => `${server}/${entry}`);

export default tseslint.config(
  // Planted files of scripts/import-rules.test.mjs; that test lints them itself with ignores turned off.
  { ignores: ['**/node_modules/**', '**/dist/**', '.tmp/**', 'data/**', 'test-results/**', '**/.lint-probe-*/**'] },
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
    files: ['apps/*/src/**/*.{ts,tsx,mjs}', 'packages/*/src/**/*.{ts,tsx,mjs}', 'e2e/**/*.{ts,tsx,mjs}'],
    plugins: { opsdeck: { rules: { 'kebab-case-file-name': kebabCaseFileName } } },
    rules: { 'opsdeck/kebab-case-file-name': 'error' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    settings: typescriptImports('apps/web/tsconfig.json'),
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Layers flow one way: shared → components/lib → features → app; a feature never reaches into another.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            { target: `${web}/components`, from: [`${web}/features`, `${web}/app`] },
            { target: `${web}/lib`, from: [`${web}/features`, `${web}/app`] },
            { target: `${web}/features`, from: `${web}/app` },
            ...webFeatures.map((feature) => ({
              target: `${web}/features/${feature}`,
              from: `${web}/features`,
              except: [`./${feature}`],
              message: 'A feature never imports another feature; compose them in app/.',
            })),
            // no-cycle skips type-only imports, so a keys.ts taking its parameter types from the calls that import it
            // closes a circle no rule sees; the key factory stays a leaf instead.
            ...webApiCalls.map(({ folder, calls }) => ({
              target: `./${folder}/keys.ts`,
              from: calls.map((call) => `./${folder}/${call}`),
              message: 'keys.ts is a leaf: declare the parameter types its keys take in keys.ts, and let get-*.ts import them.',
            })),
          ],
        },
      ],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    settings: typescriptImports('apps/server/tsconfig.json'),
    rules: {
      // platform/ is the base everything stands on; db/ and data-api/ are generic infrastructure; auth/ and the
      // modules plug into them, and a module is reached only through its index.ts.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: `${server}/platform`,
              from: [`${server}/modules`, `${server}/auth`, `${server}/data-api`],
              message: 'platform/ never depends on auth/, data-api/ or a module; take what it needs as a parameter.',
            },
            {
              target: [`${server}/db`, `${server}/data-api`],
              from: [`${server}/modules`, `${server}/auth`],
              message: 'Infrastructure never depends on auth/ or a module; modules plug into it.',
            },
            { target: `${server}/db`, from: `${server}/data-api` },
            { target: `${server}/auth`, from: `${server}/modules`, message: 'auth/ never depends on a module.' },
            {
              target: authFolder('shared'),
              from: [...authBases.filter((base) => base !== 'shared'), ...authFlows].map(authFolder),
              message: 'auth/shared/ is what every flow stands on; it imports no other auth folder.',
            },
            {
              target: [authFolder('sessions'), authFolder('factors')],
              from: authFlows.map(authFolder),
              message: 'auth/sessions/ and auth/factors/ serve the flows; they import no flow.',
            },
            ...authFlows.map((flow) => ({
              target: authFolder(flow),
              from: authFlows.filter((other) => other !== flow).map(authFolder),
              message: 'An auth flow never imports another flow: share through auth/shared/, or compose in auth/self-service.ts.',
            })),
            ...serverModules.map((module) => ({
              target: `${server}/modules/${module}`,
              from: `${server}/modules`,
              except: [`./${module}`, ...moduleEntries],
              message: "A module reaches another only through that module's index.ts.",
            })),
            {
              // The providers take their types from connections (type-only, which no-cycle skips), so this direction
              // would close a circle: Test Connection sends through the port the providers register.
              target: `${server}/modules/connections`,
              from: `${server}/modules/notification-providers`,
              message: 'connections never imports notification-providers: send through notificationDelivery() (connections/notification-delivery.ts).',
            },
            {
              target: compositionRoot,
              from: `${server}/modules`,
              except: moduleEntries,
              message: "Use the module's public entry (its index.ts).",
            },
          ],
        },
      ],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    settings: typescriptImports('packages/shared/tsconfig.json'),
    rules: { 'import-x/no-cycle': 'error' },
  },
);
