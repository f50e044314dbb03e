import { describe, expect, it } from 'vitest';
import { canarySpecJsonSchema, canarySpecSchema, CHECK_SCHEMAS, CHECK_TYPES, isRedisAddress, isSealedSecret, REDIS_ADDRESS_MESSAGE } from './check-specs';

interface JsonSchemaObject {
  type?: string;
  properties?: Record<string, JsonSchemaObject>;
  items?: JsonSchemaObject;
  required?: string[];
  additionalProperties?: unknown;
}

describe('canarySpecJsonSchema', () => {
  const schema = canarySpecJsonSchema() as JsonSchemaObject;

  it('lists the canary keys and a list of checks for every check type the server runs', () => {
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['schedule', 'interval', ...CHECK_TYPES]));
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties?.http?.type).toBe('array');
  });

  it('describes what an author writes: a defaulted field such as method is not required, the name is', () => {
    const http = schema.properties?.http?.items;
    expect(http?.required).toContain('name');
    expect(http?.required).not.toContain('method');
    expect(http?.properties?.url?.type).toBe('string');
  });

  it('is plain JSON an editor can load', () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('check schemas', () => {
  it('opens a secret written plainly or as {value} and keeps a sealed one valid', () => {
    const parsed = CHECK_SCHEMAS.http.parse({ name: 'a', authentication: { username: { value: 'u' }, password: { $encrypted: 'x' } } });
    expect(parsed.authentication).toEqual({ username: 'u', password: '' });
    expect(parsed.method).toBe('GET');
  });

  it('refuses a duration or a size it cannot read, with a message that says which', () => {
    const result = CHECK_SCHEMAS.folder.safeParse({ name: 'backups', path: '/b', maxAge: 'soon', minSize: 'big' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['must be a duration such as 500ms, 30s or 1h', 'must be a size such as 512, 10MB or 1Gi']);
  });

  it('refuses a canary spec key that is neither a canary setting nor a check type', () => {
    expect(canarySpecSchema.safeParse({ schedule: '@every 1m', s3: [] }).success).toBe(false);
    expect(canarySpecSchema.safeParse({ schedule: '@every 1m', tcp: [{ name: 'db', endpoint: 'db:5432' }] }).success).toBe(true);
  });

  it('tells a sealed secret from a plain value', () => {
    expect(isSealedSecret({ $encrypted: 'abc' })).toBe(true);
    expect(isSealedSecret({ $encrypted: 'abc', value: 'x' })).toBe(false);
    expect(isSealedSecret('abc')).toBe(false);
  });

  it('reads exec env and http headers written as a map or as canary-checker\'s [{name, value}] list, as one map', () => {
    const env = CHECK_SCHEMAS.exec.parse({ name: 'e', script: 'true', env: [{ name: 'A', value: '1' }, { name: 'B', value: { value: '2' } }] }).env;
    expect(env).toEqual({ A: '1', B: '2' });
    expect(CHECK_SCHEMAS.exec.safeParse({ name: 'e', script: 'true', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }).success).toBe(false);
  });

  it('reads a catalog selector written as one object or as a list, as a list', () => {
    expect(CHECK_SCHEMAS.catalog.parse({ name: 'c', selector: { types: ['Pod'] } }).selector).toEqual([{ types: ['Pod'] }]);
    expect(CHECK_SCHEMAS.catalog.parse({ name: 'c', selector: [{ types: ['Pod'] }, { name: 'web-*' }] }).selector).toEqual([{ types: ['Pod'] }, { name: 'web-*' }]);
    expect(CHECK_SCHEMAS.catalog.parse({ name: 'c' }).selector).toEqual([{}]);
  });

  it('takes an http check\'s top-level username and password, as canary-checker writes them', () => {
    const http = CHECK_SCHEMAS.http.parse({ name: 'h', url: 'http://127.0.0.1:9/', username: { value: 'ada' }, password: 'pw' });
    expect([http.username, http.password]).toEqual(['ada', 'pw']);
  });

  it('takes a Redis addr only as host:port, the rule the health-check form shows, and leaves addr optional', () => {
    for (const addr of ['redis:6379', 'cache.example.test:6379', '10.0.0.5:6380', ' redis:6379 ']) expect(isRedisAddress(addr), addr).toBe(true);
    for (const addr of ['redis', 'redis:', ':6379', 'redis://cache:6379', 'cache:6379/0', 'ca che:6379', 'cache:port', 'cache:123456']) {
      expect(isRedisAddress(addr), addr).toBe(false);
    }
    const refused = CHECK_SCHEMAS.redis.safeParse({ name: 'cache', addr: 'redis' });
    expect(refused.error?.issues.map((issue) => ({ path: issue.path, message: issue.message }))).toEqual([{ path: ['addr'], message: REDIS_ADDRESS_MESSAGE }]);
    expect(CHECK_SCHEMAS.redis.safeParse({ name: 'cache', addr: 'redis:6379' }).success).toBe(true);
    expect(CHECK_SCHEMAS.redis.safeParse({ name: 'cache', connection: 'connection://default/cache' }).success).toBe(true);
    expect(canarySpecSchema.safeParse({ redis: [{ name: 'cache', addr: 'redis://cache:6379' }] }).success).toBe(false);
  });
});
