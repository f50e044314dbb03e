import { describe, expect, it } from 'vitest';
import type { ResolvedConnection } from '../connections';
import { referencesIn, resolveValueReferences, ValueReferenceError } from './value-references';

function connection(overrides: Partial<ResolvedConnection>): ResolvedConnection {
  return {
    id: 'c1',
    name: 'httpbin-secret',
    namespace: 'default',
    type: 'http',
    url: 'https://httpbin.example',
    username: 'hello',
    password: 'world-password',
    certificate: null,
    insecureTls: false,
    properties: { region: 'eu-west-1' },
    secretProperties: { API_TOKEN: 'token-value-1234' },
    ...overrides,
  };
}

const secret = (name: string, key: string): { valueFrom: { secretKeyRef: { name: string; key: string } } } => ({ valueFrom: { secretKeyRef: { name, key } } });

async function resolveWith(spec: Record<string, unknown>, stored: ResolvedConnection[], namespace: string | null = 'default') {
  const asked: string[] = [];
  const resolved = await resolveValueReferences(
    spec,
    namespace,
    (reference) => {
      asked.push(reference);
      const found = stored.find((item) => `${item.namespace}/${item.name}` === reference || item.name === reference);
      return found === undefined ? Promise.reject(new Error(`Connection '${reference}' not found`)) : Promise.resolve(found);
    },
    () => Promise.resolve(undefined),
  );
  return { ...resolved, asked };
}

describe('valueFrom references', () => {
  it('lists every reference of a check with the path it sits at', () => {
    const spec = { url: 'https://a', username: secret('s', 'u'), headers: [{ name: 'X', value: 'y' }, { name: 'T', ...secret('s', 't') }], tlsConfig: { ca: { valueFrom: { configMapKeyRef: { name: 'm', key: 'ca.crt' } } } } };
    expect(referencesIn(spec, 'http[0]')).toEqual([
      { path: 'http[0].username.valueFrom', secret: true, name: 's', key: 'u' },
      { path: 'http[0].headers[1].valueFrom', secret: true, name: 's', key: 't' },
      { path: 'http[0].tlsConfig.ca.valueFrom', secret: false, name: 'm', key: 'ca.crt' },
    ]);
  });

  it("puts each value in place from the connection of that name in the canary's namespace, and lists the secret ones", async () => {
    const spec = {
      url: 'https://httpbin.example/basic-auth/hello/world',
      username: secret('httpbin-secret', 'username'),
      password: secret('httpbin-secret', 'password'),
      headers: [{ name: 'X-Token', ...secret('httpbin-secret', 'API_TOKEN') }],
      env: [{ name: 'region', valueFrom: { configMapKeyRef: { name: 'httpbin-secret', key: 'region' } } }],
    };
    const { spec: resolved, secrets, asked } = await resolveWith(spec, [connection({})]);
    expect(resolved).toEqual({
      url: 'https://httpbin.example/basic-auth/hello/world',
      username: 'hello',
      password: 'world-password',
      headers: [{ name: 'X-Token', value: 'token-value-1234' }],
      env: [{ name: 'region', value: 'eu-west-1' }],
    });
    expect(secrets.sort()).toEqual(['hello', 'token-value-1234', 'world-password']);
    expect(asked).toEqual(['default/httpbin-secret']);
  });

  it('refuses to send a value to any origin but its connection’s, naming the field and both origins', async () => {
    const spec = { url: 'https://collector.attacker.example/steal', headers: [{ name: 'X-Token', ...secret('httpbin-secret', 'API_TOKEN') }] };
    const run = resolveWith(spec, [connection({})]);
    await expect(run).rejects.toBeInstanceOf(ValueReferenceError);
    await expect(run).rejects.toThrow("headers[0].valueFrom: the values of connection 'httpbin-secret' go only to its origin (https://httpbin.example:443), not to https://collector.attacker.example:443");
  });

  it('refuses a check on another port or scheme of the same host, and a connection without a URL', async () => {
    const password = secret('httpbin-secret', 'password');
    await expect(resolveWith({ url: 'http://httpbin.example/', password }, [connection({})])).rejects.toThrow('go only to its origin');
    await expect(resolveWith({ url: 'https://httpbin.example:8443/', password }, [connection({})])).rejects.toThrow('go only to its origin');
    await expect(resolveWith({ url: 'https://httpbin.example/', password }, [connection({ url: null })])).rejects.toThrow('(none: the connection has no URL)');
  });

  it('takes a bare host:port address with the connection’s scheme, as a redis check writes it', async () => {
    const spec = { addr: 'redis.example:6379', tlsConfig: { key: secret('redis', 'client.key') } };
    const { spec: resolved } = await resolveWith(spec, [connection({ name: 'redis', url: 'redis://redis.example:6379', secretProperties: { 'client.key': 'PEM-KEY-TEXT' } })]);
    expect(resolved).toEqual({ addr: 'redis.example:6379', tlsConfig: { key: 'PEM-KEY-TEXT' } });
  });

  it("binds an oauth2 check's client credentials to its token URL, and its other references to its address", async () => {
    const idp = connection({ name: 'idp', url: 'https://login.example' });
    const spec = { url: 'https://api.example/get', oauth2: { tokenURL: 'https://login.example/oauth/token' }, username: secret('idp', 'username'), password: secret('idp', 'password') };
    const { spec: resolved } = await resolveWith(spec, [idp]);
    expect(resolved).toMatchObject({ username: 'hello', password: 'world-password' });
    await expect(resolveWith({ ...spec, oauth2: { tokenURL: 'https://collector.attacker.example/token' } }, [idp])).rejects.toThrow('not to https://collector.attacker.example:443');
    await expect(resolveWith({ ...spec, headers: [{ name: 'X', ...secret('idp', 'API_TOKEN') }] }, [idp])).rejects.toThrow('headers[0].valueFrom: the values of connection');
  });

  it('names what is missing: the connection, a secret property, a plain property', async () => {
    await expect(resolveWith({ url: 'https://httpbin.example', password: secret('nope', 'password') }, [connection({})])).rejects.toThrow(
      "password.valueFrom names the connection 'default/nope': Connection 'default/nope' not found",
    );
    await expect(resolveWith({ url: 'https://httpbin.example', password: secret('httpbin-secret', 'PASSWORD') }, [connection({})])).rejects.toThrow(
      "password.valueFrom: the connection 'httpbin-secret' has no secret property 'PASSWORD'",
    );
    await expect(resolveWith({ url: 'https://httpbin.example', env: [{ name: 'x', valueFrom: { configMapKeyRef: { name: 'httpbin-secret', key: 'API_TOKEN' } } }] }, [connection({})])).rejects.toThrow(
      "env[0].valueFrom: the connection 'httpbin-secret' has no property 'API_TOKEN'",
    );
  });

  it('names the connection by name alone for a canary without a namespace', async () => {
    const { asked } = await resolveWith({ url: 'https://httpbin.example', password: secret('httpbin-secret', 'password') }, [connection({})], null);
    expect(asked).toEqual(['httpbin-secret']);
  });

  it('leaves a spec without references as it is', async () => {
    const spec = { url: 'https://a', password: 'plain' };
    const resolved = await resolveWith(spec, []);
    expect(resolved.spec).toBe(spec);
    expect(resolved.secrets).toEqual([]);
  });
});
