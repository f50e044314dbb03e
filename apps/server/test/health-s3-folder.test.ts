import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from '../src/modules/connections/connection-store';
import { startTestServer, type TestServer } from './harness';
import { TEST_SECRET_KEY } from './global-setup';
import { runCanaryNow, type LatestStatus } from './fixtures/run-canary';

const ACCESS_KEY = 'AKIDS3FOLDERTEST';
const SECRET_KEY = 's3-folder-secret-key-9f2c';
const DAY = 24 * 3600 * 1000;

interface FakeS3 {
  url: string;
  /** Every request: its path and query, and its Authorization header ('' when none). */
  requests: Array<{ path: string; authorization: string }>;
  close(): Promise<void>;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * An S3-compatible server (path-style) answering ListObjectsV2 from `objects`, two keys per page so listings page, and
 * 403 to a request signed with another access key.
 */
async function startFakeS3(objects: Record<string, Array<{ key: string; size: number; ageMs: number }>>): Promise<FakeS3> {
  const fake: FakeS3 = { url: '', requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const authorization = req.headers.authorization ?? '';
    fake.requests.push({ path: `${url.pathname}${url.search}`, authorization });
    if (authorization !== '' && !authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/`)) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0"?><Error><Code>InvalidAccessKeyId</Code><Message>The access key does not exist</Message></Error>');
      return;
    }
    const bucket = decodeURIComponent(url.pathname.slice(1));
    const prefix = url.searchParams.get('prefix') ?? '';
    const all = (objects[bucket] ?? []).filter((object) => object.key.startsWith(prefix));
    const start = Number(url.searchParams.get('continuation-token') ?? '0');
    const page = all.slice(start, start + 2);
    const more = start + 2 < all.length;
    const contents = page
      .map((object) => `<Contents><Key>${escapeXml(object.key)}</Key><LastModified>${new Date(Date.now() - object.ageMs).toISOString()}</LastModified><Size>${object.size}</Size></Contents>`)
      .join('');
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><IsTruncated>${more}</IsTruncated>${more ? `<NextContinuationToken>${start + 2}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`);
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  fake.url = `http://127.0.0.1:${port}`;
  fake.close = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return fake;
}

/** canary-checker's S3 folder checks (its s3_bucket fixtures): a bucket listed with ListObjectsV2, judged as a folder. */
describe('folder checks on s3://', () => {
  let server: TestServer;
  let admin: string;
  let s3: FakeS3;
  let count = 0;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
    s3 = await startFakeS3({
      backups: [
        { key: 'mysql/backups/2026-11-28/mysql.zip', size: 300, ageMs: 2 * DAY },
        { key: 'mysql/backups/2026-11-29/mysql.zip', size: 310, ageMs: DAY },
        { key: 'pg/backups/old/backup.zip', size: 20, ageMs: 30 * DAY },
        { key: 'pg/backups/readme & notes.txt', size: 5, ageMs: DAY },
        { key: 'developers/a/one.txt', size: 1, ageMs: DAY },
      ],
    });
    await createConnection(server.pool, TEST_SECRET_KEY, {
      name: 'aws-credentials',
      namespace: 'canaries',
      type: 'http',
      url: s3.url,
      secret_properties: { AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET_KEY },
    }, null);
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'minio', namespace: 'canaries', type: 's3', url: s3.url, username: ACCESS_KEY, password: SECRET_KEY, properties: { region: 'minio' } }, null);
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'aws-prod', namespace: 'canaries', type: 'aws', username: ACCESS_KEY, password: SECRET_KEY }, null);
  });
  afterAll(async () => {
    await s3.close();
    await server.close();
  });

  async function save(check: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    count += 1;
    const reply = await server.call('POST', '/api/canary/canaries', admin, { name: `s3-${count}`, namespace: 'canaries', spec: { schedule: '@every 5m', folder: [{ name: 'backups', ...check }] } });
    return { status: reply.status, json: reply.json };
  }

  async function run(check: Record<string, unknown>): Promise<LatestStatus> {
    const saved = await save(check);
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    return runCanaryNow(server, String(saved.json.id));
  }

  const fromSecret = (key: string): Record<string, unknown> => ({ valueFrom: { secretKeyRef: { name: 'aws-credentials', key } } });
  const minio = { endpoint: '', region: 'minio', usePathStyle: true };

  it('lists the bucket page by page with keys read through valueFrom, signed, and judges the files matched by the glob', async () => {
    s3.requests.length = 0;
    const result = await run({
      path: 's3://backups/mysql/**/*.zip',
      awsConnection: { ...minio, endpoint: s3.url, accessKey: fromSecret('AWS_ACCESS_KEY_ID'), secretKey: fromSecret('AWS_SECRET_ACCESS_KEY') },
      minCount: 2,
      maxAge: '7d',
      minSize: '25b',
      display: { expr: "results.files.map(f, f.name).join(', ')" },
    });
    expect(result.error).toBeNull();
    // As for a local glob, names are relative to the fixed part of the path (here s3://backups/mysql/).
    expect(result.message).toBe('backups/2026-11-28/mysql.zip, backups/2026-11-29/mysql.zip');
    expect(s3.requests[0]?.path).toBe('/backups?list-type=2&prefix=mysql%2F');
    expect(s3.requests.every((request) => request.authorization.startsWith(`AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/`))).toBe(true);
    expect(JSON.stringify(result)).not.toContain(SECRET_KEY);
  });

  it('fails on the oldest file a regex filter keeps, as canary-checker does, reading names with XML entities', async () => {
    const old = await run({ path: 's3://backups/pg', awsConnection: { ...minio, endpoint: s3.url, connection: 'connection://canaries/minio' }, filter: { regex: 'backup\\.zip$' }, maxAge: '7d' });
    expect(old.status).toBe(false);
    expect(old.error).toContain('backups/old/backup.zip is too old');
    const notes = await run({ path: 's3://backups/pg/backups/*.txt', awsConnection: { ...minio, endpoint: s3.url, connection: 'connection://canaries/minio' }, minCount: 1 });
    expect(notes.status).toBe(true);
    expect(notes.message).toContain('readme & notes.txt');
  });

  it('lists a public bucket without signing when no keys are given, following its continuation tokens', async () => {
    s3.requests.length = 0;
    const result = await run({ path: 's3://backups/', awsConnection: { ...minio, endpoint: s3.url }, minCount: 5, maxCount: 5 });
    expect(result.error).toBeNull();
    expect(s3.requests.map((request) => request.authorization)).toEqual(['', '', '']);
    expect(s3.requests[2]?.path).toBe('/backups?list-type=2&continuation-token=4');
  });

  it('never signs for another host with the keys of an AWS connection: refused at save, and at run for one created later', async () => {
    const refused = await save({ path: 's3://backups/', awsConnection: { ...minio, endpoint: s3.url, connection: 'connection://canaries/aws-prod' } });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('OD_CONNECTION_ORIGIN');
    const saved = await save({ path: 's3://backups/', awsConnection: { ...minio, endpoint: s3.url, connection: 'connection://canaries/aws-later' } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(201);
    await createConnection(server.pool, TEST_SECRET_KEY, { name: 'aws-later', namespace: 'canaries', type: 'aws', username: ACCESS_KEY, password: SECRET_KEY }, null);
    s3.requests.length = 0;
    const result = await runCanaryNow(server, String(saved.json.id));
    expect(result.status).toBe(false);
    expect(result.error).toContain('sign for AWS endpoints only');
    expect(s3.requests).toEqual([]);
  });

  it('refuses at save keys from a connection on another origin, a remote folder it does not read, awsConnection on a local path, and recursive: false on s3', async () => {
    const elsewhere = await save({ path: 's3://backups/', awsConnection: { endpoint: 'https://s3.example.test', accessKey: fromSecret('AWS_ACCESS_KEY_ID'), secretKey: fromSecret('AWS_SECRET_ACCESS_KEY') } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.code).toBe('OD_VALUE_FROM_ORIGIN');
    for (const check of [{ path: 'gcs://bucket/x' }, { path: 'sftp://host/backups' }, { path: '/var/backups', awsConnection: { region: 'eu-west-1' } }, { path: 's3://backups/db', recursive: false }]) {
      const refused = await save(check);
      expect(refused.status, JSON.stringify(check)).toBe(400);
    }
  });
});
