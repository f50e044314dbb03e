import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import { createAuthenticator } from './authenticator';

function fakePool(rows: () => unknown[]): { pool: pg.Pool; calls: () => number } {
  let calls = 0;
  const pool = {
    query: async () => {
      calls += 1;
      return { rows: rows() };
    },
  } as unknown as pg.Pool;
  return { pool, calls: () => calls };
}

function requestWith(token: string | undefined): FastifyRequest {
  return { cookies: token === undefined ? {} : { opsdeck_session: token }, headers: {} } as unknown as FastifyRequest;
}

const ROW = { id: 's1', identity_id: 'p1', name: 'Ada', email: 'ada@x', roles: ['admin'] };

describe('createAuthenticator', () => {
  it('answers null without a token and without touching the database', async () => {
    const { pool, calls } = fakePool(() => [ROW]);
    expect(await createAuthenticator(pool)(requestWith(undefined))).toBeNull();
    expect(calls()).toBe(0);
  });

  it('reuses a resolved session for the cache TTL, then reads the database again', async () => {
    let clock = 1000;
    let rows: unknown[] = [ROW];
    const { pool, calls } = fakePool(() => rows);
    const authenticate = createAuthenticator(pool, { cacheTtlMs: 1000, now: () => clock });
    expect((await authenticate(requestWith('t')))?.roles).toEqual(['admin']);
    rows = [];
    clock += 999;
    expect(await authenticate(requestWith('t'))).not.toBeNull();
    expect(calls()).toBe(1);
    clock += 2;
    expect(await authenticate(requestWith('t'))).toBeNull();
    expect(calls()).toBe(2);
  });

  it('turns away a session that still owes its second factor, as if there were none', async () => {
    const { pool } = fakePool(() => [{ ...ROW, needs_second_factor: true }]);
    expect(await createAuthenticator(pool, { cacheTtlMs: 0 })(requestWith('t'))).toBeNull();
  });

  it('treats an empty role list as viewer', async () => {
    const { pool } = fakePool(() => [{ ...ROW, roles: [] }]);
    expect((await createAuthenticator(pool, { cacheTtlMs: 0 })(requestWith('t')))?.roles).toEqual(['viewer']);
  });
});
