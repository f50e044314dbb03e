import { expect } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { hashPassword } from '../src/auth/shared/passwords';
import { REGISTRATION_PROPERTY } from '../src/auth/registration/registration-setting';
import { csrfOf, TestBrowser, type FlowBody } from './auth-client';
import type { TestServer } from './harness';
import type { SmtpSink } from './smtp-sink';

export const PASSWORD = 'opsdeck-demo';
export type EmailFlowKind = 'registration' | 'recovery' | 'verification';

/** Environment of the suites' servers: mail to the sink, client addresses from X-Forwarded-For, one allowed origin. */
export function emailFlowEnv(sink: SmtpSink): Record<string, string> {
  return { OPSDECK_SMTP_URL: sink.url, OPSDECK_TRUST_PROXY: 'true', OPSDECK_RETURN_TO_ALLOWLIST: 'https://allowed.example' };
}

let nextAddress = 1;

/**
 * A browser with a client address of its own (sent as X-Forwarded-For, which the suites' servers trust), so the
 * per-address limits of one test never reach another.
 */
export class AddressedBrowser extends TestBrowser {
  constructor(
    baseUrl: string,
    readonly ip = `198.51.100.${nextAddress++}`,
  ) {
    super(baseUrl);
  }

  override request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', this.ip);
    return super.request(path, { ...init, headers });
  }

  async startFlow(kind: EmailFlowKind, query = ''): Promise<FlowBody> {
    const response = await this.json(`/api/auth/self-service/${kind}/browser${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as FlowBody;
  }

  /** Submits the flow with its CSRF token added. */
  submit(flow: FlowBody, body: Record<string, unknown>): Promise<Response> {
    return this.json(flow.ui.action, { method: 'POST', body: JSON.stringify({ csrf_token: csrfOf(flow), ...body }) });
  }
}

/** The six-digit code of a recovery or verification mail: the first run of six digits, as e2e/support/mailbox.ts reads it. */
export function codeIn(mail: ParsedMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1];
  if (code === undefined) throw new Error(`no code in the mail '${mail.subject ?? ''}'`);
  return code;
}

/** Mail to `to` among everything the sink received so far. */
export function mailsTo(sink: SmtpSink, to: string): ParsedMail[] {
  return sink.mails.filter((mail) => (Array.isArray(mail.to) ? mail.to : mail.to === undefined ? [] : [mail.to]).some((address) =>
    address.value.some((entry) => entry.address?.toLowerCase() === to.toLowerCase()),
  ));
}

export function nodeNamed(flow: FlowBody, name: string): FlowBody['ui']['nodes'][number] | undefined {
  return flow.ui.nodes.find((node) => node.attributes.name === name);
}

/** A person with a password and an identity whose traits hold the address, and the given roles. */
export async function createPerson(server: TestServer, email: string, roles: string[] = []): Promise<string> {
  const person = await server.pool.query<{ id: string }>('insert into people (name, email) values ($1, $2) returning id', ['Test Person', email]);
  const id = person.rows[0]?.id ?? '';
  await server.pool.query('insert into identities (id, traits) values ($1, $2)', [id, JSON.stringify({ email, name: { first: 'Test', last: 'Person' } })]);
  await server.pool.query(`insert into identity_credentials (identity_id, type, identifiers, config) values ($1, 'password', $2, $3)`, [
    id,
    [email],
    JSON.stringify({ hashed_password: await hashPassword(PASSWORD) }),
  ]);
  for (const role of roles) await server.pool.query('insert into person_roles (person_id, role) values ($1, $2)', [id, role]);
  return id;
}

export async function setRegistration(server: TestServer, enabled: boolean): Promise<void> {
  await server.pool.query(
    `insert into properties (name, value) values ($1, $2) on conflict (name) do update set value = excluded.value`,
    [REGISTRATION_PROPERTY, enabled ? 'true' : 'false'],
  );
}

export async function isVerified(server: TestServer, email: string): Promise<boolean | undefined> {
  const result = await server.pool.query<{ verified: boolean }>('select verified from identity_verifiable_addresses where value = $1', [email]);
  return result.rows[0]?.verified;
}
