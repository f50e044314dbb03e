import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/shared/passwords';
import { ADDRESS_FAILURE_LIMIT, MAX_DELAY_MS, PAIR_FAILURE_LIMIT, throttleHashes } from '../../src/auth/shared/login-throttle';
import { csrfOf, TestBrowser, type FlowBody, type KratosErrorResponse } from '../auth-client';
import { TEST_SECRET_KEY } from '../global-setup';
import { startTestServer, type TestServer } from '../harness';

const PASSWORD = 'opsdeck-demo';

/** One client at one address: with OPSDECK_TRUST_PROXY on, X-Forwarded-For is the address the server limits. */
class Client {
  private readonly browser: TestBrowser;
  private flow: FlowBody | undefined;

  constructor(
    baseUrl: string,
    private readonly address: string,
  ) {
    this.browser = new TestBrowser(baseUrl);
  }

  private headers(): Record<string, string> {
    return { 'x-forwarded-for': this.address };
  }

  async attempt(identifier: string, password: string): Promise<Response> {
    if (this.flow === undefined) {
      const started = await this.browser.json('/api/auth/self-service/login/browser', { headers: this.headers() });
      expect(started.status).toBe(200);
      this.flow = (await started.json()) as FlowBody;
    }
    const body = JSON.stringify({ method: 'password', identifier, password, csrf_token: csrfOf(this.flow) });
    const response = await this.browser.json(this.flow.ui.action, { method: 'POST', body, headers: this.headers() });
    // A failed attempt keeps the flow; a success completes it, so the next attempt needs a new one.
    if (response.status !== 400) this.flow = undefined;
    return response;
  }
}

describe('sign-in throttling', () => {
  let server: TestServer;
  const previousTrustProxy = process.env.OPSDECK_TRUST_PROXY;
  let addressCounter = 0;
  /** A fresh documentation-range address for every client, so no test inherits another's failures. */
  const client = (): Client => {
    addressCounter += 1;
    return new Client(server.url, `198.51.100.${addressCounter}`);
  };

  async function createPerson(email: string): Promise<void> {
    const person = await server.pool.query<{ id: string }>('insert into people (name, email) values ($1, $2) returning id', ['Throttle Test', email]);
    const id = person.rows[0]?.id ?? '';
    await server.pool.query('insert into identities (id, traits) values ($1, $2)', [id, JSON.stringify({ email })]);
    await server.pool.query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
      id,
      [email],
      JSON.stringify({ hashed_password: await hashPassword(PASSWORD) }),
    ]);
  }

  async function expectTooMany(response: Response): Promise<void> {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await response.json()) as KratosErrorResponse).error).toMatchObject({ id: 'self_service_flow_rate_limited', code: 429 });
  }

  beforeAll(async () => {
    process.env.OPSDECK_TRUST_PROXY = 'true';
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    if (previousTrustProxy === undefined) delete process.env.OPSDECK_TRUST_PROXY;
    else process.env.OPSDECK_TRUST_PROXY = previousTrustProxy;
  });

  it("does not let a stranger's twenty failures from one address stop the owner signing in from another", async () => {
    await createPerson('owner@opsdeck.local');
    const stranger = client();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) statuses.push((await stranger.attempt('owner@opsdeck.local', `guess-${attempt}`)).status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(PAIR_FAILURE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - PAIR_FAILURE_LIMIT);

    const started = Date.now();
    const owner = await client().attempt('owner@opsdeck.local', PASSWORD);
    expect(owner.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(MAX_DELAY_MS + 1500);
  });

  it('refuses the eleventh try for one identifier from one address with 429, even with the right password', async () => {
    await createPerson('eleventh@opsdeck.local');
    const attacker = client();
    for (let attempt = 0; attempt < PAIR_FAILURE_LIMIT; attempt += 1) {
      expect((await attacker.attempt('eleventh@opsdeck.local', `guess-${attempt}`)).status).toBe(400);
    }
    await expectTooMany(await attacker.attempt('eleventh@opsdeck.local', `guess-${PAIR_FAILURE_LIMIT}`));
    await expectTooMany(await attacker.attempt('ELEVENTH@opsdeck.local ', PASSWORD));
  });

  it('lifts the limit once the window has passed', async () => {
    await createPerson('window@opsdeck.local');
    const attacker = client();
    for (let attempt = 0; attempt < PAIR_FAILURE_LIMIT; attempt += 1) await attacker.attempt('window@opsdeck.local', `guess-${attempt}`);
    await expectTooMany(await attacker.attempt('window@opsdeck.local', PASSWORD));
    await server.pool.query(`update login_failures set failed_at = failed_at - interval '10 minutes' where identifier_hash = $1`, [
      throttleHashes(TEST_SECRET_KEY).identifier('window@opsdeck.local'),
    ]);
    expect((await attacker.attempt('window@opsdeck.local', PASSWORD)).status).toBe(200);
  });

  it('refuses an address that failed across fifty identifiers, for every identifier, and not its neighbours', async () => {
    await createPerson('sprayed@opsdeck.local');
    const sprayer = client();
    for (let n = 0; n < ADDRESS_FAILURE_LIMIT; n += 1) {
      expect((await sprayer.attempt(`spray-${n}@opsdeck.local`, 'Winter2025!')).status).toBe(400);
    }
    await expectTooMany(await sprayer.attempt('spray-new@opsdeck.local', 'Winter2025!'));
    await expectTooMany(await sprayer.attempt('sprayed@opsdeck.local', PASSWORD));
    expect((await client().attempt('sprayed@opsdeck.local', PASSWORD)).status).toBe(200);
  });

  it('clears only the failures of the address that signed in successfully', async () => {
    await createPerson('clears@opsdeck.local');
    const hashes = throttleHashes(TEST_SECRET_KEY);
    const home = client();
    const stranger = client();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await home.attempt('clears@opsdeck.local', `typo-${attempt}`)).status).toBe(400);
      expect((await stranger.attempt('clears@opsdeck.local', `guess-${attempt}`)).status).toBe(400);
    }
    expect((await home.attempt('clears@opsdeck.local', PASSWORD)).status).toBe(200);
    const left = await server.pool.query<{ n: number }>('select count(*)::int as n from login_failures where identifier_hash = $1', [
      hashes.identifier('clears@opsdeck.local'),
    ]);
    expect(left.rows[0]?.n).toBe(3);
  });

  it('holds the owner at most about two seconds however many failures pile up elsewhere', async () => {
    await createPerson('besieged@opsdeck.local');
    const hashes = throttleHashes(TEST_SECRET_KEY);
    // A distributed attack's worth of failures, from 300 addresses: too slow to produce through Argon2 in a test.
    await server.pool.query(
      `insert into login_failures (identifier_hash, address_hash)
       select $1, 'elsewhere-' || (n % 300) from generate_series(1, 3000) n`,
      [hashes.identifier('besieged@opsdeck.local')],
    );
    const started = Date.now();
    const owner = await client().attempt('besieged@opsdeck.local', PASSWORD);
    const elapsed = Date.now() - started;
    expect(owner.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(MAX_DELAY_MS - 50);
    expect(elapsed).toBeLessThan(MAX_DELAY_MS + 1500);
  });
});
