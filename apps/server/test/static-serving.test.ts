import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http rather than fetch: fetch adds its own Accept-Encoding and silently decodes the body. */
function get(url: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });
}

const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => ({ id: index, name: `check ${index}` })))};\n`;
const PAGE = `<!doctype html><html><head><title>Opsdeck</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body>${'<!-- padding -->'.repeat(100)}</body></html>`;
// Already compressed: the build writes no .br or .gz beside it, and the server must send it as it is.
const IMAGE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 7)]);

/**
 * The built web app is what a browser downloads on every first visit: without compression a slow link waits for
 * megabytes of script, and without long-lived caching for hashed names it asks for them again on every visit.
 */
describe('serving the built web app', () => {
  let server: TestServer;
  let webDist: string;

  beforeAll(async () => {
    // A stand-in for `npm run build -w apps/web`: hashed files with the .br and .gz copies its precompress step writes.
    webDist = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    const files: Array<[string, Buffer]> = [
      ['index.html', Buffer.from(PAGE)],
      ['assets/index-Ab12Cd34.js', Buffer.from(SCRIPT)],
    ];
    for (const [name, content] of files) {
      writeFileSync(path.join(webDist, name), content);
      writeFileSync(path.join(webDist, `${name}.br`), brotliCompressSync(content));
      writeFileSync(path.join(webDist, `${name}.gz`), gzipSync(content));
    }
    writeFileSync(path.join(webDist, 'assets', 'logo-Zz98Yx76.png'), IMAGE);
    process.env.OPSDECK_WEB_DIST = webDist;
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    delete process.env.OPSDECK_WEB_DIST;
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends a hashed script brotli-compressed, cached for a year as immutable, when the browser accepts brotli', async () => {
    const reply = await get(`${server.url}/assets/index-Ab12Cd34.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['content-type']).toMatch(/javascript/);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(reply.headers.vary).toMatch(/accept-encoding/i);
    expect(reply.body.length).toBeLessThan(SCRIPT.length / 2);
    expect(brotliDecompressSync(reply.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a browser that does not accept brotli, honouring its preferences', async () => {
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip;q=1']) {
      const reply = await get(`${server.url}/assets/index-Ab12Cd34.js`, { 'accept-encoding': acceptEncoding });
      expect(reply.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(gunzipSync(reply.body).toString(), acceptEncoding).toBe(SCRIPT);
      expect(reply.headers['cache-control'], acceptEncoding).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    const reply = await get(`${server.url}/assets/index-Ab12Cd34.js`);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.body.toString()).toBe(SCRIPT);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends an already-compressed image as it is, still cached as immutable', async () => {
    const reply = await get(`${server.url}/assets/logo-Zz98Yx76.png`, { 'accept-encoding': 'br, gzip' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['content-type']).toBe('image/png');
    expect(reply.body.equals(IMAGE)).toBe(true);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('compresses the page of a client route too, which stays out of every cache and keeps its security headers', async () => {
    const reply = await get(`${server.url}/incidents/INC-1`, { 'accept-encoding': 'br' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['content-type']).toMatch(/text\/html/);
    expect(brotliDecompressSync(reply.body).toString()).toBe(PAGE);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['content-security-policy']).toContain("default-src 'self'");
    expect(reply.headers['x-frame-options']).toBe('DENY');
  });
});
