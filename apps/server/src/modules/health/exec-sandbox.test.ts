import { describe, expect, it } from 'vitest';
import { chooseExecSandbox, execLimits, findPasswdUser, prlimitArguments, sandboxEnvironment, type SandboxFacts } from './exec-sandbox';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/bash',
  'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  'probe:x:1200:1200::/home/probe:/bin/sh',
  'rootgroup:x:1300:0::/:/bin/sh',
  'broken:x:abc:1::/:/bin/sh',
].join('\n');

const facts = (overrides: Partial<SandboxFacts> = {}): SandboxFacts => ({
  serverUid: 0,
  configuredUser: undefined,
  passwd: PASSWD,
  prlimitAvailable: true,
  ...overrides,
});

describe('choosing how an exec check runs', () => {
  it('drops a root server to nobody by default', () => {
    expect(chooseExecSandbox(facts())).toEqual({ kind: 'drop-privileges', user: { name: 'nobody', uid: 65534, gid: 65534 } });
    expect(chooseExecSandbox(facts({ configuredUser: '  ' }))).toMatchObject({ user: { name: 'nobody' } });
  });

  it('drops to the user named by OPSDECK_EXEC_USER, resolved from /etc/passwd', () => {
    expect(chooseExecSandbox(facts({ configuredUser: 'probe' }))).toEqual({ kind: 'drop-privileges', user: { name: 'probe', uid: 1200, gid: 1200 } });
  });

  it('refuses to run anything when the server is not root, saying how to configure it', () => {
    const sandbox = chooseExecSandbox(facts({ serverUid: 1000 }));
    expect(sandbox.kind).toBe('refuse');
    if (sandbox.kind !== 'refuse') return;
    expect(sandbox.reason).toMatch(/need the server to run as root.*uid 1000/);
    expect(sandbox.reason).toContain('OPSDECK_EXEC_USER');
  });

  it('refuses on a platform without uids', () => {
    expect(chooseExecSandbox(facts({ serverUid: null })).kind).toBe('refuse');
  });

  it('refuses a sandbox user that is root, in the root group, unknown, malformed or not a name', () => {
    for (const configuredUser of ['root', 'rootgroup', 'ghost', 'broken', '../etc', 'a b']) {
      expect(chooseExecSandbox(facts({ configuredUser })), configuredUser).toMatchObject({ kind: 'refuse' });
    }
  });

  it('refuses without prlimit, which bounds the script', () => {
    expect(chooseExecSandbox(facts({ prlimitAvailable: false }))).toMatchObject({ kind: 'refuse', reason: expect.stringContaining('prlimit') });
  });
});

describe('the sandbox itself', () => {
  it('finds users by exact name only', () => {
    expect(findPasswdUser(PASSWD, 'nobod')).toBeNull();
    expect(findPasswdUser(PASSWD, 'daemon')).toEqual({ name: 'daemon', uid: 1, gid: 1 });
  });

  it('bounds CPU time by the timeout and the rest by fixed ceilings', () => {
    expect(prlimitArguments(execLimits(30_000))).toEqual(['--cpu=30', '--as=1073741824', '--nproc=64', '--fsize=16777216', '--nofile=256']);
    expect(execLimits(100).cpuSeconds).toBe(1);
    expect(execLimits(1500).cpuSeconds).toBe(2);
  });

  it('builds the environment from nothing of the server, then the check’s own variables', () => {
    process.env.OPSDECK_SANDBOX_PROBE = 'server-only';
    const env = sandboxEnvironment('/tmp/opsdeck-exec-x', { GREETING: 'hi' });
    delete process.env.OPSDECK_SANDBOX_PROBE;
    expect(env).toEqual({ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp/opsdeck-exec-x', TMPDIR: '/tmp/opsdeck-exec-x', LANG: 'C.UTF-8', GREETING: 'hi' });
  });
});
