import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { decryptSecret } from '../src/platform/secrets';
import { startTestServer, type JsonReply, type TestServer } from './harness';
import { closedPort, startFakeSmtp, startHttpServer, startRedis, type HttpTarget } from './fixtures/local-targets';
import { startPostgresTarget } from './fixtures/postgres-target';
import { allowLocalDatabases } from './fixtures/local-databases';

const SECRET = 'pa55-w0rd-never-returned';

describe('connections', () => {
  let server: TestServer;
  let admin: string;
  let web: HttpTarget;
  const previousRole = process.env.OPSDECK_ROLE;

  const call = (method: string, url: string, cookie: string, body?: unknown): Promise<JsonReply> => server.call(method, url, cookie, body);

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    // The databases tested below listen on 127.0.0.1.
    await allowLocalDatabases(server);
    web = await startHttpServer();
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await web.close();
    await server.close();
  });

  it('stores secrets encrypted and never returns them, only which are set', async () => {
    const created = await call('POST', '/api/canary/connections', admin, {
      name: 'orders-db',
      type: 'postgres',
      url: `postgres://app:${SECRET}@db.internal:5432/orders`,
      certificate: '-----BEGIN CERTIFICATE-----secret-cert',
      secret_properties: { apiKey: 'key-123', empty: '' },
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(SECRET);
    expect(created.text).not.toContain('secret-cert');
    expect(created.text).not.toContain('key-123');
    expect(created.json).toMatchObject({
      name: 'orders-db',
      namespace: 'default',
      url: 'postgres://db.internal:5432/orders',
      username: 'app',
      password_set: true,
      certificate_set: true,
      secret_properties_set: ['apiKey'],
    });
    expect(created.json).not.toHaveProperty('password');
    const id = String(created.json.id);

    for (const url of ['/api/canary/connections', `/api/canary/connections/${id}`, `/api/db/connections?id=eq.${id}`]) {
      const read = await call('GET', url, admin);
      expect(read.status, url).toBe(200);
      expect(read.text, url).not.toContain(SECRET);
      expect(read.text, url).not.toContain('_encrypted');
    }

    const stored = await server.pool.query<{ password_encrypted: Buffer }>('select password_encrypted from connections where id = $1', [id]);
    const cipher = stored.rows[0]?.password_encrypted ?? Buffer.alloc(0);
    expect(cipher.toString('latin1')).not.toContain(SECRET);
    expect(decryptSecret(server.running.context.config.secretKey, cipher)).toBe(SECRET);
  });

  it('keeps the stored password when an update leaves it out and clears it with null', async () => {
    const created = await call('POST', '/api/canary/connections', admin, { name: 'cache', type: 'redis', url: 'redis://cache:6379', password: SECRET });
    const id = String(created.json.id);
    expect(created.json.properties).toEqual({ db: '0' });
    const renamed = await call('PATCH', `/api/canary/connections/${id}`, admin, { name: 'cache-2', properties: { db: '3' } });
    expect(renamed.json).toMatchObject({ name: 'cache-2', password_set: true, properties: { db: '3' } });
    const stored = await server.pool.query<{ password_encrypted: Buffer }>('select password_encrypted from connections where id = $1', [id]);
    expect(decryptSecret(server.running.context.config.secretKey, stored.rows[0]?.password_encrypted ?? Buffer.alloc(0))).toBe(SECRET);
    const cleared = await call('PATCH', `/api/canary/connections/${id}`, admin, { password: null });
    expect(cleared.json).toMatchObject({ password_set: false });
    expect((await call('PATCH', `/api/canary/connections/${id}`, admin, { properties: { db: 'x' } })).status).toBe(400);
  });

  it('fills the per-type defaults of the spec and requires a URL where the type needs one', async () => {
    const sftp = await call('POST', '/api/canary/connections', admin, { name: 'files', type: 'sftp', url: 'files.internal' });
    expect(sftp.json.properties).toEqual({ port: '22' });
    const email = await call('POST', '/api/canary/connections', admin, { name: 'mail', type: 'email', url: 'smtp.internal' });
    expect(email.json.properties).toEqual({ port: '587', encryptionMethod: 'Auto', authMethod: 'Unknown' });
    const missing = await call('POST', '/api/canary/connections', admin, { name: 'nowhere', type: 'mysql' });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: 'OD_VALIDATION' });
    const duplicate = await call('POST', '/api/canary/connections', admin, { name: 'files', type: 'sftp', url: 'other' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json).toMatchObject({ code: 'OD_NAME_TAKEN', message: "A connection named 'files' already exists in this namespace" });
  });

  it('refuses viewers, commanders and responders even reading, and lets only admins write or test', async () => {
    for (const role of ['viewer', 'commander', 'responder'] as const) {
      const cookie = await server.cookieFor(role);
      expect((await call('GET', '/api/canary/connections', cookie)).status, role).toBe(403);
    }
    for (const role of ['viewer', 'commander', 'responder', 'editor'] as const) {
      const cookie = await server.cookieFor(role);
      expect((await call('POST', '/api/canary/connections', cookie, { name: 'x', type: 'folder', url: '/' })).status, role).toBe(403);
      expect((await call('POST', '/api/canary/connection/test', cookie, { type: 'folder', url: '/' })).status, role).toBe(403);
    }
    expect((await call('GET', '/api/canary/connections', '')).status).toBe(401);
  });

  it('soft-deletes a connection', async () => {
    const created = await call('POST', '/api/canary/connections', admin, { name: 'temp', type: 'folder', url: '/tmp' });
    const id = String(created.json.id);
    expect((await call('DELETE', `/api/canary/connections/${id}`, admin)).status).toBe(204);
    expect((await call('GET', `/api/canary/connections/${id}`, admin)).status).toBe(404);
  });

  describe('Test Connection', () => {
    it('connects to a database through a saved postgres connection', async () => {
      const target = await startPostgresTarget();
      onTestFinished(() => target.close());
      const created = await call('POST', '/api/canary/connections', admin, { name: 'other-db', type: 'postgres', url: target.url });
      const tested = await call('POST', `/api/canary/connection/test/${String(created.json.id)}`, admin);
      expect(tested.status).toBe(200);
      expect(tested.json).toMatchObject({ message: 'ok', details: { version: expect.stringContaining('PostgreSQL') } });
    });

    it('answers 400 with the error for a closed port', async () => {
      const port = await closedPort();
      const tested = await call('POST', '/api/canary/connection/test', admin, { type: 'postgres', url: `postgres://u:p@127.0.0.1:${port}/db` });
      expect(tested.status).toBe(400);
      expect(tested.json).toMatchObject({ code: 'OD_CONNECTION_TEST_FAILED', message: expect.stringContaining('ECONNREFUSED') });
    });

    it('answers 501 with the spec message for a type it cannot test', async () => {
      const tested = await call('POST', '/api/canary/connection/test', admin, { type: 'aws', name: 'cloud' });
      expect(tested.status).toBe(501);
      expect(tested.json).toMatchObject({ code: 'OD_CONNECTION_TEST_UNSUPPORTED', message: 'We currently do not support testing this connection type' });
    });

    it('tests an unsaved form with the stored password of the connection it edits', async () => {
      const redis = await startRedis('s3cret');
      try {
        const url = `redis://127.0.0.1:${redis.port}`;
        const created = await call('POST', '/api/canary/connections', admin, { name: 'redis-auth', type: 'redis', url, password: 's3cret' });
        const saved = await call('POST', `/api/canary/connection/test/${String(created.json.id)}`, admin);
        expect(saved.json).toEqual({ message: 'ok', details: { reply: 'PONG' } });
        // Editing the form without retyping the password tests with the stored one.
        const edited = await call('POST', '/api/canary/connection/test', admin, { id: created.json.id, type: 'redis', url: `127.0.0.1:${redis.port}` });
        expect(edited.json).toEqual({ message: 'ok', details: { reply: 'PONG' } });
        const wrong = await call('POST', '/api/canary/connection/test', admin, { id: created.json.id, type: 'redis', url, password: 'nope' });
        expect(wrong.status).toBe(400);
        expect(String(wrong.json.message)).toMatch(/WRONGPASS|invalid username-password/i);
      } finally {
        await redis.close();
      }
    });

    it('reaches http, prometheus and elasticsearch endpoints and reports their HTTP errors', async () => {
      expect((await call('POST', '/api/canary/connection/test', admin, { type: 'http', url: `${web.url}/ok` })).json).toEqual({ message: 'ok', details: { status: 200 } });
      expect((await call('POST', '/api/canary/connection/test', admin, { type: 'prometheus', url: web.url })).json).toEqual({ message: 'ok', details: { status: 200 } });
      const failing = await call('POST', '/api/canary/connection/test', admin, { type: 'elasticsearch', url: `${web.url}/status/500` });
      expect(failing).toMatchObject({ status: 400, json: { message: 'HTTP 500: status 500' } });
    });

    it('sends a test message to a generic webhook', async () => {
      const tested = await call('POST', '/api/canary/connection/test', admin, { type: 'generic_webhook', url: `${web.url}/echo`, properties: { messageKey: 'text' } });
      expect(tested.json).toMatchObject({ message: 'ok' });
      const received = web.requests.at(-1);
      expect(received?.method).toBe('POST');
      expect(JSON.parse(received?.body ?? '{}')).toEqual({ title: 'Opsdeck connection test', text: 'This is a test message from Opsdeck.' });
    });

    it('says hello to an SMTP server and authenticates without sending mail', async () => {
      const smtp = await startFakeSmtp();
      try {
        const body = { type: 'email', url: `127.0.0.1:${smtp.port}`, username: 'user', properties: { encryptionMethod: 'None', authMethod: 'Plain' } };
        expect((await call('POST', '/api/canary/connection/test', admin, { ...body, password: 'secret' })).json).toEqual({ message: 'ok', details: {} });
        const refused = await call('POST', '/api/canary/connection/test', admin, { ...body, password: 'nope' });
        expect(refused.status).toBe(400);
        expect(String(refused.json.message)).toMatch(/Invalid login|535/);
        expect(smtp.sessions.flat().some((line) => line.startsWith('MAIL FROM'))).toBe(false);
      } finally {
        await smtp.close();
      }
    });

    it('checks that a folder exists and that git can list a repository', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-conn-'));
      try {
        expect((await call('POST', '/api/canary/connection/test', admin, { type: 'folder', url: dir })).json).toEqual({ message: 'ok', details: {} });
        const missing = await call('POST', '/api/canary/connection/test', admin, { type: 'folder', url: path.join(dir, 'nope') });
        expect(missing.json).toMatchObject({ message: `${path.join(dir, 'nope')} does not exist` });
        const repo = path.join(dir, 'repo');
        const { execFileSync } = await import('node:child_process');
        execFileSync('git', ['init', '-q', '-b', 'main', repo]);
        execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init']);
        const git = await call('POST', '/api/canary/connection/test', admin, { type: 'git', url: repo });
        expect(git.json).toMatchObject({ message: 'ok', details: { commit: expect.stringMatching(/^[0-9a-f]{40}$/) } });
        const wrongRef = await call('POST', '/api/canary/connection/test', admin, { type: 'git', url: repo, properties: { ref: 'release' } });
        expect(wrongRef.json).toMatchObject({ message: `Ref 'release' not found in ${repo}` });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
