import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { AddressedBrowser, emailFlowEnv, setRegistration } from './identity-email-flows-support';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const PASSWORD = 'lantern-quartz-meadow-41';

interface Registered {
  identity: { id: string };
  session: { roles: string[] };
}

describe('the first person to register on a server nobody administers', () => {
  let server: TestServer;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ env: emailFlowEnv(sink) });
    await setRegistration(server, true);
    // A server whose administrators are all gone: the guard that keeps the last one is bypassed for this setup only.
    const client = await server.pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      await client.query(`delete from person_roles where role = 'admin'`);
      await client.query('commit');
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  async function register(email: string): Promise<Registered> {
    const browser = new AddressedBrowser(server.url);
    const flow = await browser.startFlow('registration');
    const response = await browser.submit(flow, {
      method: 'password',
      'traits.email': email,
      'traits.name.first': 'First',
      'traits.name.last': 'Person',
      password: PASSWORD,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Registered;
  }

  it('becomes its admin, so somebody can grant roles; the next person is a viewer', async () => {
    const first = await register('first.person@example.test');
    expect(first.session.roles).toEqual(['admin']);
    const second = await register('second.person@example.test');
    expect(second.session.roles).toEqual(['viewer']);
  });
});
