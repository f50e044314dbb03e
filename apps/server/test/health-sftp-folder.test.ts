import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { runCanaryNow, type LatestStatus } from './fixtures/run-canary';
import { startFakeSftp, type FakeSftp } from './fixtures/fake-sftp-server';

const USER = 'backup';
const PASSWORD = 'sftp-folder-pass-4b7e';
const DAY = 24 * 3600 * 1000;

/** canary-checker's SFTP folder checks (sftp_pass.yaml, sftp_fail_connection.yaml): a folder on an SFTP server, judged as a local one. */
describe('folder checks over SFTP', () => {
  let server: TestServer;
  let admin: string;
  let sftp: FakeSftp;
  let root: string;
  let count = 0;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-sftp-'));
    mkdirSync(path.join(root, 'backups', 'daily'), { recursive: true });
    const files: Array<[string, number, number]> = [
      ['backups/daily/a.tar.gz', 300, DAY],
      ['backups/daily/b.tar.gz', 310, 2 * DAY],
      ['backups/old.tar.gz', 20, 40 * DAY],
      ['backups/notes.txt', 5, DAY],
    ];
    for (const [name, size, ageMs] of files) {
      writeFileSync(path.join(root, name), 'x'.repeat(size));
      const when = new Date(Date.now() - ageMs);
      utimesSync(path.join(root, name), when, when);
    }
    sftp = await startFakeSftp(root, USER, PASSWORD);
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'files', namespace: 'sftp', type: 'sftp', url: '127.0.0.1', username: USER, password: PASSWORD, properties: { port: String(sftp.port) } }, null);
  });
  afterAll(async () => {
    await sftp.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function save(check: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    count += 1;
    const reply = await server.call('POST', '/api/canary/canaries', admin, { name: `sftp-${count}`, namespace: 'canaries', spec: { schedule: '@every 5m', folder: [{ name: 'sample sftp check', ...check }] } });
    return { status: reply.status, json: reply.json };
  }

  async function run(check: Record<string, unknown>): Promise<LatestStatus> {
    const saved = await save(check);
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    return runCanaryNow(server, String(saved.json.id));
  }

  it('logs in with an inline user and password (stored sealed) and judges the folder as canary-checker does', async () => {
    const saved = await save({ path: '/backups', sftpConnection: { host: '127.0.0.1', port: sftp.port, username: { value: USER }, password: { value: PASSWORD } }, maxCount: 10 });
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    expect(JSON.stringify(saved.json)).not.toContain(PASSWORD);
    const stored = await server.pool.query<{ spec: string }>('select spec::text as spec from checks where canary_id = $1', [saved.json.id]);
    expect(stored.rows[0]?.spec).not.toContain(PASSWORD);
    const result = await runCanaryNow(server, String(saved.json.id));
    expect(result.error).toBeNull();
    expect(result.message).toMatch(/^2 files, newest notes\.txt/);
    expect(sftp.logins.at(-1)).toEqual({ username: USER, password: PASSWORD });
  });

  it('reads a stored sftp connection, globs and filters below the path, and fails on maxAge like a local folder', async () => {
    const daily = await run({ path: '/backups/**/*.tar.gz', sftpConnection: { connection: 'connection://sftp/files' }, minCount: 3, display: { expr: "results.files.map(f, f.name).join(', ')" } });
    expect(daily.error).toBeNull();
    expect(daily.message).toBe('old.tar.gz, daily/a.tar.gz, daily/b.tar.gz');
    const old = await run({ path: '/backups', recursive: true, sftpConnection: { connection: 'connection://sftp/files' }, filter: { regex: '\\.tar\\.gz$' }, maxAge: '7d' });
    expect(old.status).toBe(false);
    expect(old.error).toContain('old.tar.gz is too old');
  });

  it('fails naming the server when the login is refused or nothing answers, and a missing folder as canary-checker does', async () => {
    const refused = await run({ path: '/backups', sftpConnection: { host: '127.0.0.1', port: sftp.port, username: USER, password: 'wrong' } });
    expect(refused.status).toBe(false);
    expect(refused.error).toContain(`sftp://127.0.0.1:${sftp.port}: All configured authentication methods failed`);
    const missing = await run({ path: '/nothing-here', sftpConnection: { connection: 'connection://sftp/files' }, minCount: 1 });
    expect(missing.status).toBe(false);
    expect(missing.error).toContain('/nothing-here does not exist; too few files 0 < 1');
    const later = await run({ path: '/tmp/premier-league', sftpConnection: { connection: 'connection://sftp/emirates' }, maxCount: 10 });
    expect(later.status).toBe(false);
    expect(later.error).toContain("Connection 'connection://sftp/emirates' not found");
  });

  it("never sends a stored connection's password to another host, and asks for an inline password again when the host changes", async () => {
    const logins = sftp.logins.length;
    const elsewhere = await run({ path: '/backups', sftpConnection: { connection: 'connection://sftp/files', host: 'files.example.test' } });
    expect(elsewhere.status).toBe(false);
    expect(elsewhere.error).toContain("is not the server of connection 'connection://sftp/files'");
    expect(sftp.logins.length).toBe(logins);
    const saved = await save({ path: '/backups', sftpConnection: { host: '127.0.0.1', port: sftp.port, username: USER, password: { value: PASSWORD } } });
    const canary = await server.call('GET', `/api/canary/canaries/${String(saved.json.id)}`, admin);
    const spec = canary.json.spec as { folder: Array<{ sftpConnection: Record<string, unknown> }> };
    const moved = { ...spec, folder: [{ ...spec.folder[0], sftpConnection: { ...spec.folder[0]?.sftpConnection, host: 'attacker.example.test' } }] };
    const changed = await server.call('PATCH', `/api/canary/canaries/${String(saved.json.id)}`, admin, { spec: moved });
    expect(changed.status, changed.text).toBe(200);
    const stored = await server.pool.query<{ spec: { sftpConnection: Record<string, unknown> } }>('select spec from checks where canary_id = $1', [saved.json.id]);
    expect(stored.rows[0]?.spec.sftpConnection.password).toBeUndefined();
  });

  it('refuses at save an sftpConnection without a host or connection, beside s3://, or with both a connection and a password', async () => {
    for (const check of [
      { path: '/backups', sftpConnection: { username: USER } },
      { path: 's3://bucket/x', sftpConnection: { host: 'files.example.test' } },
      { path: '/backups', sftpConnection: { connection: 'connection://sftp/files', password: 'x' } },
    ]) {
      const refused = await save(check);
      expect(refused.status, JSON.stringify(check)).toBe(400);
    }
  });
});
