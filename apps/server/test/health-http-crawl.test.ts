import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { startSite, type Target } from './fixtures/local-targets';
import { runCanaryNow, type LatestStatus } from './fixtures/run-canary';

const PAGES: Record<string, string> = {
  '/': '<a href="/docs">Docs</a> <a href=\'/about#team\'>About</a> <a href="http://example.invalid/away">Away</a> <a href="mailto:a@b.c">Mail</a>',
  '/docs': '<a href="/docs/guide">Guide</a><a href="/broken">Broken</a><a href="/cdn-cgi/trace">CDN</a>',
  '/about': '<a href="/">Home</a>',
  '/docs/guide': '<p>the end</p>',
};

/** canary-checker's http `crawl` (its http-crawl_pass fixture) against a local site with one broken link. */
describe('http checks that crawl', () => {
  let server: TestServer;
  let admin: string;
  let site: Target;
  let base = '';
  const requests: Array<{ path: string; authorization: string | undefined }> = [];
  let count = 0;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    site = await startSite((req, res) => {
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization });
      const page = PAGES[req.url ?? ''];
      res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html' });
      res.end(page ?? 'not found');
    });
    base = site.url;
  });
  afterAll(async () => {
    await site.close();
    await server.close();
  });

  async function run(check: Record<string, unknown>): Promise<LatestStatus> {
    count += 1;
    const saved = await server.call('POST', '/api/canary/canaries', admin, { name: `crawl-${count}`, spec: { http: [{ name: 'docs', url: `${base}/`, ...check }] } });
    expect(saved.status, saved.text).toBe(201);
    return runCanaryNow(server, String(saved.json.id));
  }

  it("follows the site's links on its own host, skipping filtered ones, and fails listing the pages that did not answer", async () => {
    requests.length = 0;
    const result = await run({ crawl: { depth: 3, disallowedURLFilters: ['/cdn-cgi/'] }, display: { expr: "missing.join(', ') + ' of ' + string(visited)" } });
    expect(result.status).toBe(false);
    expect(result.message).toBe(`${base}/broken of 5`);
    expect(requests.map((request) => request.path).sort()).toEqual(['/', '/about', '/broken', '/docs', '/docs/guide']);
    expect(requests.every((request) => request.authorization === undefined)).toBe(true);
  });

  it('stops at the depth given', async () => {
    requests.length = 0;
    const result = await run({ crawl: { depth: 1 } });
    expect(result.status).toBe(true);
    expect(result.message).toBe('Visited: 1');
    expect(requests.map((request) => request.path)).toEqual(['/']);
  });

  it('refuses at save a crawl that would send credentials, headers or a body', async () => {
    for (const extra of [{ username: 'u', password: 'p' }, { headers: [{ name: 'X-Token', value: 't' }] }, { method: 'POST' }, { crawl: { disallowedURLFilters: ['('] } }]) {
      const refused = await server.call('POST', '/api/canary/canaries', admin, { name: 'crawl-refused', spec: { http: [{ name: 'docs', url: `${base}/`, crawl: { depth: 2 }, ...extra }] } });
      expect(refused.status, JSON.stringify(extra)).toBe(400);
    }
  });
});
