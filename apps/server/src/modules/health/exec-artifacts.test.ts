import { chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_LIMITS, collectArtifacts, scrubBuffer } from './exec-artifacts';

const IS_ROOT = process.getuid?.() === 0;
const SCRIPT_UID = 65534;
const output = { stdout: 'printed\n', stderr: '' };

describe('scrubBuffer', () => {
  it('replaces every occurrence of a secret in text or binary content, and leaves content without one as it is', () => {
    const binary = Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('s3cr3t-value'), Buffer.from([255]), Buffer.from('s3cr3t-value')]);
    expect(scrubBuffer(binary, ['s3cr3t-value'])).toEqual(Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('[REDACTED]'), Buffer.from([255]), Buffer.from('[REDACTED]')]));
    const plain = Buffer.from('nothing here');
    expect(scrubBuffer(plain, ['s3cr3t-value'])).toBe(plain);
  });
});

describe.runIf(IS_ROOT)('collectArtifacts', () => {
  let root: string;
  const since = Date.now();
  const owned = (file: string, content: string | Buffer): string => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    chownSync(full, SCRIPT_UID, SCRIPT_UID);
    return full;
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-artifacts-'));
    owned('out/a.txt', 'alpha token=s3cr3t-value');
    owned('out/deep/b.log', 'beta');
    owned('out/deep/c.txt', 'gamma');
    writeFileSync(path.join(root, 'root-owned.txt'), 'the server wrote this');
    const old = owned('old.txt', 'from before the run');
    utimesSync(old, new Date(since - 60_000), new Date(since - 60_000));
    symlinkSync('/etc/passwd', path.join(root, 'link.txt'));
    chownSync(path.join(root, 'link.txt'), SCRIPT_UID, SCRIPT_UID);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps the files a glob names below where the script started, ** included, with size and checksum, secrets scrubbed', async () => {
    const kept = await collectArtifacts(['out/*.txt', 'out/**/*.log'], root, { uid: SCRIPT_UID, since, output }, ['s3cr3t-value']);
    expect(kept.artifacts.map((artifact) => [artifact.path, artifact.content.toString()])).toEqual([
      ['out/a.txt', 'alpha token=[REDACTED]'],
      ['out/deep/b.log', 'beta'],
    ]);
    expect(kept.artifacts[0]).toMatchObject({ size: 'alpha token=[REDACTED]'.length, checksum: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(kept.notes).toEqual([]);
  });

  it("never reads a file the script's user did not write during the run: not a link, not the server's, not an older one", async () => {
    const kept = await collectArtifacts(['link.txt', 'root-owned.txt', 'old.txt', '/etc/shadow', 'missing/*'], root, { uid: SCRIPT_UID, since, output }, []);
    expect(kept.artifacts).toEqual([]);
    expect(kept.notes).toEqual([
      'link.txt: not kept, it is a symbolic link',
      "root-owned.txt: not kept, the script's user does not own it",
      'old.txt: not kept, the script did not write it during this run',
      "/etc/shadow: not kept, the script's user does not own it",
      'missing/*: no file matches',
    ]);
  });

  it('counts, and never names, the files a glob finds that the script did not write', async () => {
    const kept = await collectArtifacts(['*.txt'], root, { uid: SCRIPT_UID, since, output }, []);
    expect(kept.artifacts).toEqual([]);
    expect(kept.notes).toEqual(['*.txt: 3 matching entries were not kept: only regular files the script wrote during this run are']);
  });

  it('keeps what the script printed for /dev/stdout, as canary-checker does, and stops at the size limits with a note', async () => {
    owned('big.bin', Buffer.alloc(ARTIFACT_LIMITS.fileBytes + 1));
    const kept = await collectArtifacts(['/dev/stdout', 'big.bin'], root, { uid: SCRIPT_UID, since, output }, []);
    expect(kept.artifacts.map((artifact) => [artifact.path, artifact.content.toString()])).toEqual([['/dev/stdout', 'printed\n']]);
    expect(kept.notes).toEqual([`big.bin: not kept, it is ${ARTIFACT_LIMITS.fileBytes + 1} bytes, over the ${ARTIFACT_LIMITS.fileBytes} kept of one file`]);
  });
});
