import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountDelayFor,
  FLOW_ACCOUNT_FAILURE_BUDGET,
  FLOW_ACCOUNT_MAX_DELAY_MS,
  FLOW_PAIR_FAILURE_LIMIT,
  flowThrottleHashes,
  type FlowScope,
} from '../../src/auth/shared/flow-throttle';
import { createCodeStore, MAX_CODE_ATTEMPTS, type CodeRedemption } from '../../src/auth/shared/verification-codes';
import type { FlowBody } from '../auth-client';
import { TEST_SECRET_KEY } from '../global-setup';
import { startTestServer, type TestServer } from '../harness';
import { AddressedBrowser, codeIn, createPerson, emailFlowEnv } from '../identity-email-flows-support';
import { startSmtpSink, type SmtpSink } from '../smtp-sink';

/** Slack for a loaded machine on top of a hold: the hold is asserted from below, this only catches a runaway. */
const SLACK_MS = 3000;

describe('guessing recovery and verification codes of one account from many addresses', () => {
  let server: TestServer;
  let sink: SmtpSink;
  let nextAddress = 1;
  /** Each browser a client address of its own, as a guesser with many addresses has. */
  const browser = (): AddressedBrowser => new AddressedBrowser(server.url, `203.0.113.${nextAddress++}`);

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: emailFlowEnv(sink) });
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  /** A flow of `kind` at its code step for `email`, with the code mailed to that address (which a guesser never sees). */
  async function codeStep(b: AddressedBrowser, kind: 'recovery' | 'verification', email: string): Promise<{ flow: FlowBody; code: string }> {
    const flow = await b.startFlow(kind);
    const since = sink.mails.length;
    const sent = await b.submit(flow, { method: 'code', email });
    expect(sent.status).toBe(200);
    return { flow: (await sent.json()) as FlowBody, code: codeIn(await sink.waitFor(email, { since })) };
  }

  /** One wrong code on the flow; answers how long the server took. */
  async function wrongGuess(b: AddressedBrowser, flow: FlowBody, code: string): Promise<number> {
    const started = Date.now();
    const response = await b.submit(flow, { method: 'code', code: code === '000000' ? '000001' : '000000' });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(400);
    return elapsed;
  }

  /** A distributed attack's worth of failures for the address, from 300 client addresses, written as the throttle records them. */
  async function failuresFromElsewhere(scope: FlowScope, email: string): Promise<void> {
    await server.pool.query(
      `insert into identity_flow_events (scope, kind, identifier_hash, address_hash)
       select $1, 'failure', $2, 'elsewhere-' || (n % 300) from generate_series(1, 3000) n`,
      [scope, flowThrottleHashes(TEST_SECRET_KEY).identifier(email)],
    );
  }

  it('holds every guess past the account’s budget, though each address stays under its own limit, and a fresh address gains nothing', async () => {
    const email = 'spread.guesses@example.test';
    await createPerson(server, email);
    const attackers = [browser(), browser(), browser()];
    const held: { failuresBefore: number; elapsed: number }[] = [];
    let failures = 0;
    for (const attacker of attackers) {
      const { flow, code } = await codeStep(attacker, 'recovery', email);
      for (let tries = 0; tries < MAX_CODE_ATTEMPTS; tries += 1) {
        held.push({ failuresBefore: failures, elapsed: await wrongGuess(attacker, flow, code) });
        failures += 1;
      }
    }
    expect(MAX_CODE_ATTEMPTS).toBeLessThan(FLOW_PAIR_FAILURE_LIMIT);
    expect(failures).toBeGreaterThan(FLOW_ACCOUNT_FAILURE_BUDGET);
    for (const guess of held.filter((entry) => entry.failuresBefore >= FLOW_ACCOUNT_FAILURE_BUDGET)) {
      expect(guess.elapsed).toBeGreaterThanOrEqual(accountDelayFor(guess.failuresBefore) - 50);
    }

    const newcomer = browser();
    const { flow, code } = await codeStep(newcomer, 'recovery', email);
    expect(await wrongGuess(newcomer, flow, code)).toBeGreaterThanOrEqual(accountDelayFor(failures) - 50);
  });

  it('lets the owner recover with the right code after at most the longest hold, however many failures pile up elsewhere', async () => {
    const email = 'besieged.recovery@example.test';
    await createPerson(server, email);
    await failuresFromElsewhere('recovery', email);
    const owner = browser();
    const { flow, code } = await codeStep(owner, 'recovery', email);
    const started = Date.now();
    const recovered = await owner.submit(flow, { method: 'code', code });
    const elapsed = Date.now() - started;
    expect(recovered.status).toBe(422);
    expect(((await recovered.json()) as { error: { id: string } }).error.id).toBe('browser_location_change_required');
    expect(elapsed).toBeGreaterThanOrEqual(FLOW_ACCOUNT_MAX_DELAY_MS - 50);
    expect(elapsed).toBeLessThan(FLOW_ACCOUNT_MAX_DELAY_MS + SLACK_MS);
  });

  it('holds verification codes of a besieged address as well, and still verifies it with the right one', async () => {
    const email = 'besieged.verification@example.test';
    await createPerson(server, email);
    await failuresFromElsewhere('verification', email);
    const owner = browser();
    const { flow, code } = await codeStep(owner, 'verification', email);
    const started = Date.now();
    const verified = await owner.submit(flow, { method: 'code', code });
    const elapsed = Date.now() - started;
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as FlowBody).state).toBe('passed_challenge');
    expect(elapsed).toBeGreaterThanOrEqual(FLOW_ACCOUNT_MAX_DELAY_MS - 50);
    expect(elapsed).toBeLessThan(FLOW_ACCOUNT_MAX_DELAY_MS + SLACK_MS);
  });
});

describe('guessing one flow\'s code with many requests at once', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('judges only as many of twenty simultaneous guesses as the flow allows in all, and refuses the right code after them', async () => {
    const email = 'guessed.at.once@example.test';
    const identityId = await createPerson(server, email);
    const { id: flowId } = await new AddressedBrowser(server.url, '203.0.113.250').startFlow('recovery');
    const codes = createCodeStore(server.pool, TEST_SECRET_KEY);
    const code = await codes.issue({ purpose: 'recovery', flowId, identityId, address: email });
    const wrong = (n: number): string => String((Number(code) + n) % 1_000_000).padStart(6, '0');

    const outcomes: CodeRedemption[] = await Promise.all(Array.from({ length: 20 }, (_, n) => codes.redeem(flowId, wrong(n + 1))));

    const judged = outcomes.filter((outcome) => outcome.outcome === 'invalid');
    expect(judged).toHaveLength(MAX_CODE_ATTEMPTS - 1);
    expect(outcomes.filter((outcome) => outcome.outcome === 'exhausted')).toHaveLength(20 - (MAX_CODE_ATTEMPTS - 1));
    const stored = await server.pool.query<{ attempts: number }>('select sum(failed_attempts)::int as attempts from identity_codes where flow_id = $1', [flowId]);
    expect(stored.rows[0]?.attempts).toBe(MAX_CODE_ATTEMPTS);
    expect(await codes.redeem(flowId, code)).toEqual({ outcome: 'exhausted' });
  });
});
