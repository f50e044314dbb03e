import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@opsdeck/shared';
import { SECRET_FIELDS, type SecretField } from '../../src/platform/secret-fields';
import { auditTableText } from '../audit-support';
import { startTestServer, type JsonReply, type TestServer } from '../harness';

const ROLES: readonly Role[] = ['admin', 'editor', 'commander', 'responder', 'viewer'];
const SECURITY_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/security.md');

/** How a test writes one resource whose field holds `secret`, and the reads that must never show it. */
interface Sample {
  write(server: TestServer, admin: string, secret: string): Promise<JsonReply>;
  table: string;
  /** Domain routes that answer the resource, given the id the write returned. */
  reads(id: string): string[];
}

const canary = (spec: (secret: string) => Record<string, unknown>): Sample => ({
  write: (server, admin, secret) => server.call('POST', '/api/canary/canaries', admin, { name: `c-${secret.slice(-8)}`, spec: spec(secret) }),
  table: 'canaries',
  reads: (id) => [`/api/canary/canaries/${id}`, `/api/db/canaries?id=eq.${id}`, `/api/db/checks?canary_id=eq.${id}`, `/api/db/canaries?id=eq.${id}&select=*,checks(*)`],
});

const scraper = (spec: (secret: string) => Record<string, unknown>): Sample => ({
  write: (server, admin, secret) =>
    server.call('POST', '/api/db/config_scrapers', admin, [{ name: `s-${secret.slice(-8)}`, spec: spec(secret) }], { prefer: 'return=representation' }),
  table: 'config_scrapers',
  reads: (id) => [`/api/db/config_scrapers?id=eq.${id}`],
});

const playbook = (action: (secret: string) => Record<string, unknown>): Sample => ({
  write: (server, admin, secret) =>
    server.call(
      'POST',
      '/api/db/playbooks',
      admin,
      [{ name: `p-${secret.slice(-8)}`, spec: { description: 'secret fields', actions: [{ name: 'act', ...action(secret) }] } }],
      { prefer: 'return=representation' },
    ),
  table: 'playbooks',
  reads: (id) => [`/api/db/playbooks?id=eq.${id}`],
});

const connection = (fields: (secret: string) => Record<string, unknown>): Sample => ({
  write: (server, admin, secret) => server.call('POST', '/api/canary/connections', admin, { name: `k-${secret.slice(-8)}`, ...fields(secret) }),
  table: 'connections',
  reads: (id) => [`/api/canary/connections/${id}`, `/api/db/connections?id=eq.${id}`],
});

const URL = 'https://secret-fields.example.test/health';

/** One sample per field of SECRET_FIELDS: a field added there without a sample here fails the first test. */
const SAMPLES: Record<string, Sample> = {
  'canary: headers (a map), every header off the public list': canary((secret) => ({ http: [{ name: 'h', url: URL, headers: { 'X-Tenant-Key': secret } }] })),
  'canary: headers (a [{name, value}] list), every header off the public list': canary((secret) => ({
    http: [{ name: 'h', url: URL, headers: [{ name: 'Cookie', value: `session=${secret}` }] }],
  })),
  'canary: body': canary((secret) => ({ http: [{ name: 'h', url: URL, method: 'POST', body: `{"client_secret":"${secret}"}` }] })),
  'canary: every key ending in password, secret, token, apiKey, accessKey, privateKey or credentials': canary((secret) => ({
    http: [{ name: 'h', url: URL, authentication: { username: 'svc', password: secret } }],
    redis: [{ name: 'r', addr: 'cache.example.test:6379', password: { value: `${secret}-redis` } }],
  })),
  'canary: env entries with a secret name (of a check or of the canary)': canary((secret) => ({
    env: { DB_PASSWORD: secret },
    http: [{ name: 'h', url: URL }],
  })),
  "canary: tlsConfig.key (a client certificate's private key)": canary((secret) => ({
    redis: [{ name: 'r', addr: 'cache.example.test:6380', tlsConfig: { cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', key: `-----BEGIN PRIVATE KEY-----\n${secret}\n-----END PRIVATE KEY-----` } }],
  })),
  'canary: the password of a database or http(s) URL, moved to the password field at save': canary((secret) => ({
    postgres: [{ name: 'p', url: `postgres://reader:${secret}@db.example.test:5432/app` }],
    http: [{ name: 'h', url: `https://svc:${secret}-http@secret-fields.example.test/health` }],
  })),
  'scraper: username and auth.username of a source': scraper((secret) => ({
    http: [{ type: 'Api::Status', id: '$.id', url: URL, username: secret, password: 'x-password' }],
  })),
  'scraper: password and other secret-named keys of a source': scraper((secret) => ({
    http: [{ type: 'Api::Status', id: '$.id', url: URL, username: 'svc', password: { value: secret } }],
  })),
  'scraper: headers of an http source, every header off the public list': scraper((secret) => ({
    http: [{ type: 'Api::Status', id: '$.id', url: URL, headers: [{ name: 'Authorization', value: `Bearer ${secret}` }] }],
  })),
  'scraper: connection or url of a source written as a DSN with a password': scraper((secret) => ({
    sql: [{ type: 'Db::Row', id: '$.id', connection: `postgres://reader:${secret}@db.example.test:5432/app`, query: 'select 1 as id' }],
  })),
  'playbook: http.headers of an action, every header off the public list': playbook((secret) => ({
    http: { url: URL, method: 'POST', headers: [{ name: 'Authorization', value: `Bearer ${secret}` }] },
  })),
  'playbook: http.body of an action': playbook((secret) => ({ http: { url: URL, method: 'POST', body: `{"token":"${secret}"}` } })),
  'playbook: exec.env values of an action (every value)': playbook((secret) => ({ exec: { script: 'echo ok', env: [{ name: 'REGION', value: secret }] } })),
  'connection: password': connection((secret) => ({ type: 'redis', url: 'redis://cache.example.test:6379', password: secret })),
  'connection: certificate (or kubeconfig)': connection((secret) => ({ type: 'http', url: URL, certificate: `-----BEGIN CERTIFICATE-----${secret}` })),
  'connection: secret_properties': connection((secret) => ({ type: 'http', url: URL, secret_properties: { apiKey: secret } })),
};

const keyOf = (field: SecretField): string => `${field.kind}: ${field.field}`;

function idOf(reply: JsonReply): string {
  const body: unknown = reply.json;
  const row = Array.isArray(body) ? (body[0] as Record<string, unknown> | undefined) : body;
  const id = (row as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') throw new Error(`no id in ${reply.text}`);
  return id;
}

describe('every secret-bearing field of every kind is sealed at rest and absent from API answers, the audit log and the server log', () => {
  let server: TestServer;
  const logLines: string[] = [];
  const cookies = new Map<Role, string>();
  const previousRole = process.env.OPSDECK_ROLE;

  beforeAll(async () => {
    process.env.OPSDECK_ROLE = 'api';
    server = await startTestServer({ env: { LOG_LEVEL: 'trace', LOG_FORMAT: 'json' }, logStream: { write: (line) => void logLines.push(line) } });
    for (const role of ROLES) cookies.set(role, await server.cookieFor(role));
  });
  afterAll(async () => {
    process.env.OPSDECK_ROLE = previousRole;
    await server.close();
  });

  it('has a sample for every field the registry lists, and docs/security.md names every one', () => {
    const doc = readFileSync(SECURITY_DOC, 'utf8');
    for (const field of SECRET_FIELDS) {
      expect(SAMPLES[keyOf(field)], keyOf(field)).toBeDefined();
      expect(doc, keyOf(field)).toContain(`| ${field.kind} | ${field.field} |`);
    }
  });

  it.each(SECRET_FIELDS.map((field) => [keyOf(field), field] as const))('keeps %s out of every place a reader looks', async (key) => {
    const sample = SAMPLES[key];
    if (sample === undefined) throw new Error(`no sample for ${key}`);
    const secret = `plaintext-${key.replace(/[^a-z]/gi, '').slice(0, 12)}-${Math.random().toString(36).slice(2, 10)}`;
    const admin = cookies.get('admin') ?? '';
    const written = await sample.write(server, admin, secret);
    expect(written.status, written.text).toBeLessThan(300);
    expect(written.text).not.toContain(secret);
    const id = idOf(written);

    const stored = await server.pool.query<{ text: string }>(`select string_agg(t::text, '') as text from ${sample.table} t where t.id = $1`, [id]);
    expect(stored.rows[0]?.text ?? '').not.toBe('');
    expect(stored.rows[0]?.text).not.toContain(secret);
    if (sample.table === 'canaries') {
      const checks = await server.pool.query<{ text: string | null }>(`select string_agg(k::text, '') as text from checks k where k.canary_id = $1`, [id]);
      expect(checks.rows[0]?.text ?? '').not.toContain(secret);
    }

    for (const role of ROLES) {
      for (const url of sample.reads(id)) {
        const read = await server.call('GET', url, cookies.get(role) ?? '');
        expect(read.status, `${role} ${url}`).toBeLessThan(500);
        expect(read.text, `${role} ${url}`).not.toContain(secret);
      }
    }
    expect(await auditTableText(server)).not.toContain(secret);
    expect(logLines.join('')).not.toContain(secret);
  });
});
