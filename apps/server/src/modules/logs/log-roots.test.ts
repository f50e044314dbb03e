import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathProblem } from './log-roots';

describe('pathProblem', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'log-roots-'));
    mkdirSync(path.join(root, 'app'));
    symlinkSync('/etc', path.join(root, 'app', 'out'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('accepts relative and absolute paths and globs inside a root, templates included', () => {
    for (const pattern of ['app/*.log', 'app/{{ labels.app }}.log', path.join(root, 'app', 'x.log'), 'app/../app/x.log', 'not-yet/x.log']) {
      expect(pathProblem(pattern, [root]), pattern).toBeNull();
    }
  });

  it('refuses paths that leave the roots by .., by an absolute path or through a symlink', () => {
    for (const pattern of ['../x.log', '/etc/passwd', `${root}/../../etc/passwd`, 'app/out/passwd', 'app/out/*.conf', 'app/*/../../../etc/passwd']) {
      expect(pathProblem(pattern, [root]), pattern).not.toBeNull();
    }
  });

  it('refuses every path when there is no root', () => {
    expect(pathProblem('app/x.log', [])).not.toBeNull();
  });
});
