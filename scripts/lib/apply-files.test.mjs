import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseApplyArguments, readApplyFiles, refusalLine, reportLines } from './apply-files.mjs';

describe('npm run apply', () => {
  let folder = '';

  afterEach(() => {
    if (folder !== '') rmSync(folder, { recursive: true, force: true });
  });

  it('reads .yaml and .yml files of a folder recursively, in name order, skipping hidden folders and other files', () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'apply-cli-'));
    mkdirSync(path.join(folder, 'canaries'));
    mkdirSync(path.join(folder, '.git'));
    writeFileSync(path.join(folder, 'canaries', 'web.yml'), 'kind: Canary\n');
    writeFileSync(path.join(folder, 'b.yaml'), 'kind: Topology\n');
    writeFileSync(path.join(folder, 'a.YAML'), 'kind: Playbook\n');
    writeFileSync(path.join(folder, 'README.md'), '# not applied\n');
    writeFileSync(path.join(folder, '.git', 'config.yaml'), 'kind: Secret\n');
    expect(readApplyFiles(folder)).toEqual([
      { path: 'a.YAML', content: 'kind: Playbook\n' },
      { path: 'b.yaml', content: 'kind: Topology\n' },
      { path: 'canaries/web.yml', content: 'kind: Canary\n' },
    ]);
  });

  it('reads a single file under the path it was given', () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'apply-cli-'));
    const file = path.join(folder, 'one.yaml');
    writeFileSync(file, 'kind: Canary\n');
    expect(readApplyFiles(file)).toEqual([{ path: file, content: 'kind: Canary\n' }]);
  });

  it('prints one line per document, naming file and index, and what a dry run would refuse', () => {
    const lines = reportLines({
      dryRun: true,
      documents: [
        { file: 'a.yaml', index: 1, kind: 'Canary', namespace: 'shop', name: 'web', action: 'created', error: null },
        { file: null, index: null, kind: 'Playbook', namespace: 'shop', name: 'old', action: 'pruned', error: null },
        { file: 'a.yaml', index: 2, kind: 'Canary', namespace: 'shop', name: 'bad', action: 'refused', error: { code: 'OD_INVALID_CANARY_SPEC', message: 'The canary spec is not valid', details: 'a.yaml document 2: http[0].tlsConfig' } },
      ],
    });
    expect(lines).toEqual([
      'canary.shop/web created (a.yaml#1) (dry run)',
      'playbook.shop/old pruned (dry run)',
      'a.yaml document 2: http[0].tlsConfig would be refused: OD_INVALID_CANARY_SPEC The canary spec is not valid',
    ]);
    expect(refusalLine({ code: 'OD_APPLY_KIND', message: 'Notification is not applied', details: 'n.yaml document 1: kind', hint: 'Apply one of: Canary' })).toBe(
      'refused: OD_APPLY_KIND Notification is not applied [n.yaml document 1: kind]\n  hint: Apply one of: Canary',
    );
  });

  it('takes the token from OPSDECK_TOKEN and refuses a call without a file or a token', () => {
    expect(parseApplyArguments(['-f', 'gitops', '--dry-run', '--prune'], { OPSDECK_TOKEN: 'odt_x' })).toEqual({
      file: 'gitops',
      dryRun: true,
      prune: true,
      server: 'http://127.0.0.1:8080',
      token: 'odt_x',
    });
    expect(() => parseApplyArguments([], { OPSDECK_TOKEN: 'odt_x' })).toThrow(/-f/);
    expect(() => parseApplyArguments(['-f', 'x.yaml'], {})).toThrow(/OPSDECK_TOKEN/);
  });
});
