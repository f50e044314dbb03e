import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlaybookAction } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import { actionDestination, openPlaybookAction, playbookHoldsSecrets, sealPlaybookSpec } from './playbook-secrets';

const key = randomBytes(32);
const PLAYBOOK = '6f1d2c3b-0000-4000-8000-000000000001';
const OTHER = '6f1d2c3b-0000-4000-8000-000000000002';

function sealedAction(spec: Record<string, unknown>, playbookId = PLAYBOOK): PlaybookAction {
  const sealed = sealPlaybookSpec(key, playbookId, spec) as { actions: PlaybookAction[] };
  const [action] = sealed.actions;
  if (action === undefined) throw new Error('no action');
  return action;
}

describe('actionDestination', () => {
  it('is exec for a script, the named connection, else the origin of the http URL', () => {
    expect(actionDestination({ exec: { script: 'true' } })).toBe('exec');
    expect(actionDestination({ http: { connection: 'connection://ops/api', url: '/v1/{{ params.id }}' } })).toBe('connection://ops/api');
    expect(actionDestination({ sql: { connection: 'connection://ops/db', query: 'select 1' } })).toBe('connection://ops/db');
    expect(actionDestination({ http: { url: 'HTTPS://API.example.com:443/v1/{{ params.id }}?q=1' } })).toBe('https://api.example.com');
  });
});

describe('sealPlaybookSpec and openPlaybookAction', () => {
  const http = { url: 'https://api.example.com/hook', headers: [{ name: 'Authorization', value: 'Bearer t0ken' }, { name: 'X-Run', value: '{{ run.id }}' }], body: 'secret-body' };

  it('seals plaintext, leaves templates as written, and opens only for the same playbook and origin', () => {
    const action = sealedAction({ actions: [{ name: 'call', http }] });
    expect(action.http?.headers?.[0]?.value).toMatchObject({ $encrypted: expect.any(String) });
    expect(action.http?.headers?.[1]?.value).toBe('{{ run.id }}');
    expect(openPlaybookAction(key, PLAYBOOK, action).http).toEqual(http);
    expect(() => openPlaybookAction(key, OTHER, action)).toThrow("The secret at action 'call'.http.headers[0].value was sealed for another resource");
    const elsewhere = { ...action, http: { ...action.http, url: 'https://evil.example.net/hook' } };
    expect(() => openPlaybookAction(key, PLAYBOOK, elsewhere)).toThrow(/sealed for another resource, field or destination/);
  });

  it('opens an exec action with everything it runs: script, env, connections and checkout', () => {
    const exec = {
      script: 'make check',
      env: [{ name: 'API_TOKEN', value: 's3cret-value' }],
      connections: { aws: { connection: 'connection://ops/aws' } },
      checkout: { url: 'https://git.example.com/ops.git', branch: 'main' },
    };
    const action = sealedAction({ actions: [{ name: 'run', exec }] });
    expect(action.exec?.env?.[0]?.value).toMatchObject({ $encrypted: expect.any(String) });
    expect(openPlaybookAction(key, PLAYBOOK, action).exec).toEqual(exec);
  });

  it('drops envelopes that no longer open where they stand, and refuses sealed values behind a templated host', () => {
    const action = sealedAction({ actions: [{ name: 'call', http }] });
    const moved = sealedAction({ actions: [{ ...action, http: { ...action.http, url: 'https://evil.example.net/hook' } }] });
    expect(moved.http?.headers).toEqual([{ name: 'X-Run', value: '{{ run.id }}' }]);
    expect(moved.http?.body).toBeUndefined();
    let refused: unknown;
    try {
      sealPlaybookSpec(key, PLAYBOOK, { actions: [{ name: 'call', http: { ...http, url: 'https://{{ params.host }}/hook' } }] });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: 'spec.actions[0].http.url' });
  });

  it('says whether a spec holds anything to seal', () => {
    expect(playbookHoldsSecrets({ actions: [{ name: 'call', http }] })).toBe(true);
    expect(playbookHoldsSecrets({ actions: [{ name: 'call', http: { url: 'https://x.test', headers: [{ name: 'Accept', value: 'text/plain' }] } }] })).toBe(false);
    expect(playbookHoldsSecrets({ actions: [{ name: 'env', exec: { script: 'true', env: [{ name: 'NS', value: '{{ params.ns }}' }] } }] })).toBe(false);
  });
});
