// Plants import cycles, cross-module and cross-feature imports and a badly named file in folders the repo's ESLint
// config covers, lints just those files with that config, and checks that each one fails for the right rule while
// the same shapes done right pass. The folders are git-ignored and ignored by `eslint .`, so a run that dies halfway
// leaves nothing behind that the lint step or git would pick up.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const probe = `.lint-probe-${process.pid}`;
const probeDirs = [
  'apps/server/src/modules/health',
  'apps/server/src/modules/connections',
  'apps/server/src/platform',
  'apps/server/src/db',
  'apps/server/src/seed',
  'apps/server/src/auth/registration',
  'apps/server/src/auth/shared',
  'apps/web/src/features/health',
  'apps/web/src/features/api-docs',
  'apps/web/src/features/agents',
].map((dir) => path.join(root, dir, probe));

/** Files to plant, by path under the repo with `<probe>` standing for this run's probe folder. */
const plants = {
  'apps/server/src/modules/health/<probe>/cycle-a.ts': "import { b } from './cycle-b';\nexport const a = (): number => b() + 1;\n",
  'apps/server/src/modules/health/<probe>/cycle-b.ts': "import { a } from './cycle-a';\nexport const b = (): number => a() * 2;\n",
  'apps/server/src/modules/connections/<probe>/internal.ts': 'export const internal = 1;\n',
  'apps/server/src/modules/health/<probe>/reaches-internals.ts':
    "import { internal } from '../../connections/<probe>/internal';\nexport const reached = internal;\n",
  'apps/server/src/platform/<probe>/uses-module.ts':
    "import { connectionsPlugin } from '../../modules/connections';\nexport const used = connectionsPlugin.name;\n",
  'apps/server/src/db/<probe>/uses-auth.ts': "import { hashPassword } from '../../auth/shared/passwords';\nexport const used = hashPassword;\n",
  'apps/server/src/auth/registration/<probe>/uses-flow.ts':
    "import { VERIFICATION_PAGE } from '../../verification/verification-routes';\nexport const used = VERIFICATION_PAGE;\n",
  'apps/server/src/auth/shared/<probe>/uses-sessions.ts': "import { PRIVILEGED_SESSION_MS } from '../../sessions/sessions';\nexport const used = PRIVILEGED_SESSION_MS;\n",
  'apps/web/src/features/health/<probe>/cycle-a.tsx':
    "import { label } from './cycle-b';\nexport function Probe() {\n  return <span>{label()}</span>;\n}\n",
  'apps/web/src/features/health/<probe>/cycle-b.ts': "import { Probe } from './cycle-a';\nexport const label = (): string => Probe.name;\n",
  'apps/web/src/features/agents/<probe>/internal.ts': 'export const internal = 1;\n',
  'apps/web/src/features/api-docs/<probe>/reaches-feature.ts':
    "import { internal } from '../../agents/<probe>/internal';\nexport const reached = internal;\n",
  'apps/server/src/modules/health/<probe>/camelCase.ts': 'export const named = 1;\n',
  'apps/web/src/features/health/<probe>/api/keys.ts':
    "import type { ProbeParams } from './get-probe';\nexport const probeKeys = { list: (params: ProbeParams) => ['probe', params] as const };\n",
  'apps/web/src/features/health/<probe>/api/get-probe.ts':
    "import { probeKeys } from './keys';\nexport interface ProbeParams {\n  id: string;\n}\nexport const probeKey = (params: ProbeParams) => probeKeys.list(params);\n",
  'apps/server/src/modules/connections/<probe>/sends-directly.ts':
    "import { deliverNotification } from '../../notification-providers';\nexport const send = deliverNotification;\n",
};

/** The same shapes done right: a one-way chain, a module's public entry, the seed through it, dotted suffixes. */
const controls = {
  'apps/server/src/modules/health/<probe>/chain-a.ts': "import { b } from './chain-b';\nexport const a = (): number => b() + 1;\n",
  'apps/server/src/modules/health/<probe>/chain-b.ts': 'export const b = (): number => 2;\n',
  'apps/server/src/modules/health/<probe>/uses-public-entry.ts':
    "import { connectionsPlugin } from '../../connections';\nexport const used = connectionsPlugin.name;\n",
  'apps/server/src/auth/registration/<probe>/uses-shared.ts': "import { hashPassword } from '../../shared/passwords';\nexport const used = hashPassword;\n",
  'apps/server/src/seed/<probe>/uses-public-entry.ts':
    "import { syncCanaryChecks } from '../../modules/health';\nexport const used = syncCanaryChecks.name;\n",
  'apps/web/src/features/health/<probe>/chain-a.tsx':
    "import { label } from './chain-b';\nexport function Probe() {\n  return <span>{label()}</span>;\n}\n",
  'apps/web/src/features/health/<probe>/chain-b.ts': "export const label = (): string => 'probe';\n",
  'apps/web/src/features/health/<probe>/two-words.probe.ts': 'export const named = 1;\n',
  'apps/web/src/features/health/<probe>/right/api/keys.ts':
    "export interface RightParams {\n  id: string;\n}\nexport const rightKeys = { list: (params: RightParams) => ['right', params] as const };\n",
  'apps/web/src/features/health/<probe>/right/api/get-right.ts':
    "import { rightKeys, type RightParams } from './keys';\nexport const rightKey = (params: RightParams) => rightKeys.list(params);\n",
};

const planted = (file) => path.join(root, file.replaceAll('<probe>', probe));
const rulesBroken = new Map();

function removeProbes() {
  for (const dir of probeDirs) rmSync(dir, { recursive: true, force: true });
}

beforeAll(async () => {
  for (const [file, text] of Object.entries({ ...plants, ...controls })) {
    mkdirSync(path.dirname(planted(file)), { recursive: true });
    writeFileSync(planted(file), text.replaceAll('<probe>', probe));
  }
  // The config reads the feature and module folders when it loads, so it is created after the files exist. Ignores
  // are off because the config keeps every probe folder out of `eslint .`.
  const eslint = new ESLint({ cwd: root, ignore: false, cache: false });
  const results = await eslint.lintFiles([...Object.keys(plants), ...Object.keys(controls)].map(planted));
  for (const result of results) rulesBroken.set(result.filePath, [...new Set(result.messages.map((message) => message.ruleId ?? message.message))]);
}, 120_000);

afterAll(removeProbes);

function brokenIn(file) {
  const rules = rulesBroken.get(planted(file));
  if (rules === undefined) throw new Error(`${file} was not linted`);
  return rules;
}

describe('the import rules of eslint.config.js', () => {
  it('fail on a runtime import cycle between two server .ts files', () => {
    expect(brokenIn('apps/server/src/modules/health/<probe>/cycle-a.ts')).toEqual(['import-x/no-cycle']);
    expect(brokenIn('apps/server/src/modules/health/<probe>/cycle-b.ts')).toEqual(['import-x/no-cycle']);
  });

  it('fail on a runtime import cycle between a web .tsx and a .ts file', () => {
    expect(brokenIn('apps/web/src/features/health/<probe>/cycle-a.tsx')).toEqual(['import-x/no-cycle']);
    expect(brokenIn('apps/web/src/features/health/<probe>/cycle-b.ts')).toEqual(['import-x/no-cycle']);
  });

  it("fail when a server module imports a file inside another module instead of that module's index.ts", () => {
    expect(brokenIn('apps/server/src/modules/health/<probe>/reaches-internals.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('fail when platform/ imports a module or db/ imports auth/', () => {
    expect(brokenIn('apps/server/src/platform/<probe>/uses-module.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(brokenIn('apps/server/src/db/<probe>/uses-auth.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('fail when an auth flow imports another flow, or auth/shared/ imports another auth folder', () => {
    expect(brokenIn('apps/server/src/auth/registration/<probe>/uses-flow.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(brokenIn('apps/server/src/auth/shared/<probe>/uses-sessions.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('fail when a web feature imports another feature, for a feature folder the config never names', () => {
    expect(brokenIn('apps/web/src/features/api-docs/<probe>/reaches-feature.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("fail when a web keys.ts imports a get-*.ts call beside it, a type circle no-cycle skips; the call importing keys.ts passes", () => {
    expect(brokenIn('apps/web/src/features/health/<probe>/api/keys.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(brokenIn('apps/web/src/features/health/<probe>/api/get-probe.ts')).toEqual([]);
  });

  it('fail when connections imports notification-providers, which registers into its delivery port instead', () => {
    expect(brokenIn('apps/server/src/modules/connections/<probe>/sends-directly.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('fail on a file name that is not kebab-case', () => {
    expect(brokenIn('apps/server/src/modules/health/<probe>/camelCase.ts')).toEqual(['opsdeck/kebab-case-file-name']);
  });

  it("pass one-way imports, a module's public entry used by another module and by the seed, a flow using auth/shared/, a keys.ts that declares its own parameter types, and dotted kebab names", () => {
    expect(Object.fromEntries(Object.keys(controls).map((file) => [file, brokenIn(file)]))).toEqual(
      Object.fromEntries(Object.keys(controls).map((file) => [file, []])),
    );
  });
});
