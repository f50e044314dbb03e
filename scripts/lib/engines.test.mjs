import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from './web-build.mjs';

const readJson = (file) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

describe('the Node version the project declares', () => {
  const declared = readJson('package.json').engines.node;
  const oldest = semver.minVersion(declared).version;

  it('is accepted by every installed dependency, so npm install prints no engine warning', () => {
    const refusing = Object.entries(readJson('package-lock.json').packages)
      .filter(([, entry]) => typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.satisfies(oldest, entry.engines.node, { includePrerelease: true }))
      .map(([name, entry]) => `${name} wants node ${entry.engines.node}`);
    expect(refusing).toEqual([]);
  });

  it('is the version the README states and the server build targets', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(`Needs Node.js ${oldest.replace(/\.0$/, '')} or newer`);
    expect(readFileSync(path.join(ROOT, 'scripts/lib/server-build.mjs'), 'utf8')).toContain(`target: 'node${oldest.replace(/\.0$/, '')}'`);
  });

  it('comes with every install script of a dependency approved in allowScripts, so npm install asks nothing', () => {
    const allowed = readJson('package.json').allowScripts ?? {};
    const withScripts = Object.entries(readJson('package-lock.json').packages)
      .filter(([name, entry]) => name.startsWith('node_modules/') && entry.hasInstallScript === true)
      .map(([name]) => name.slice(name.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.filter((name) => allowed[name] === undefined)).toEqual([]);
  });
});
