import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from '../harness';
import { TEST_SECRET_KEY } from '../global-setup';
import { runCanaryNow } from '../fixtures/run-canary';

const IS_ROOT = process.getuid?.() === 0;
const TOKEN = 'checkout-token-7f3e';
const EXPECTED = `Basic ${Buffer.from(`bot:${TOKEN}`).toString('base64')}`;

interface GitHost {
  url: string;
  /** The Authorization header of every request, '' when none was sent. */
  authorizations: string[];
  close(): Promise<void>;
}

/** A bare repository served over git's smart HTTP protocol (upload-pack, stateless), answering 401 to any request without the expected Basic header. */
async function startGitHost(bare: string | null): Promise<GitHost> {
  const host: GitHost = { url: '', authorizations: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    host.authorizations.push(req.headers.authorization ?? '');
    if (bare === null || req.headers.authorization !== EXPECTED) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://host');
    if (req.method === 'GET' && url.pathname === '/repo.git/info/refs' && url.searchParams.get('service') === 'git-upload-pack') {
      const refs = execFileSync('git', ['upload-pack', '--stateless-rpc', '--advertise-refs', bare]);
      const banner = '# service=git-upload-pack\n';
      res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
      res.end(Buffer.concat([Buffer.from(`${(banner.length + 4).toString(16).padStart(4, '0')}${banner}0000`), refs]));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/repo.git/git-upload-pack') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const input = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
        const pack = execFileSync('git', ['upload-pack', '--stateless-rpc', bare], { input });
        res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-result', 'cache-control': 'no-cache' });
        res.end(pack);
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  host.url = `http://127.0.0.1:${port}/repo.git`;
  host.close = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return host;
}

/**
 * exec `checkout.connection` (issue #32): git clones a private repository with a stored connection's credentials, sent
 * as a header to that connection's origin alone, never written into the clone. The attacks: point the checkout at
 * another host with the connection, at save and (a connection created later) at run.
 */
describe.runIf(IS_ROOT)('exec checkouts with a stored connection', () => {
  let server: TestServer;
  let admin: string;
  let work: string;
  let bare: string;
  let gitHost: GitHost;
  let otherHost: GitHost;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    // Built and served by this process: the sandbox user reaches it over HTTP only.
    work = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-private-'));
    bare = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bare-'));
    writeFileSync(path.join(work, 'README'), 'private\n');
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.email=ci@opsdeck.test', '-c', 'user.name=ci', '-c', 'init.defaultBranch=main', ...args], { cwd: work, stdio: 'ignore' });
    };
    git('init', '--quiet');
    git('add', '.');
    git('commit', '--quiet', '-m', 'private');
    execFileSync('git', ['clone', '--quiet', '--bare', work, bare], { stdio: 'ignore' });
    gitHost = await startGitHost(bare);
    otherHost = await startGitHost(null);
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'private-git', namespace: 'ops', type: 'git', url: gitHost.url, username: 'bot', password: TOKEN }, null);
  });
  afterAll(async () => {
    await gitHost.close();
    await otherHost.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
    await server.close();
  });

  async function saveCanary(name: string, url: string, connection: string): Promise<{ status: number; json: Record<string, unknown> }> {
    const reply = await server.call('POST', '/api/canary/canaries', admin, {
      name,
      namespace: 'ops',
      spec: {
        schedule: '@every 5m',
        exec: [{ name: 'read', script: 'cat README && ! grep -ri authorization .git/config', checkout: { url, connection }, test: { expr: 'results.stdout == "private"' } }],
      },
    });
    return { status: reply.status, json: reply.json };
  }

  it("clones with the connection's credentials sent to its origin, and leaves none in the clone", async () => {
    const saved = await saveCanary('private-clone', gitHost.url, 'connection://ops/private-git');
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    const result = await runCanaryNow(server, String(saved.json.id));
    expect(result.error, JSON.stringify(gitHost.authorizations)).toBeNull();
    expect(result.status).toBe(true);
    expect(gitHost.authorizations).toContain(EXPECTED);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it("refuses at save a checkout on another origin that names the connection, and the other host hears nothing", async () => {
    const saved = await saveCanary('elsewhere', otherHost.url, 'connection://ops/private-git');
    expect(saved.status).toBe(400);
    expect(saved.json.code).toBe('OD_CONNECTION_ORIGIN');
    expect(otherHost.authorizations).toEqual([]);
  });

  it('fails the run, sending nothing, when a connection created after the save belongs to another origin', async () => {
    const saved = await saveCanary('later', otherHost.url, 'connection://ops/later-git');
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'later-git', namespace: 'ops', type: 'git', url: gitHost.url, username: 'bot', password: TOKEN }, null);
    const result = await runCanaryNow(server, String(saved.json.id));
    expect(result.status).toBe(false);
    expect(result.error).toContain('its credentials are sent nowhere else');
    expect(otherHost.authorizations).toEqual([]);
  });
});
