import { describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { PLAYBOOK_SPEC_SCHEMA } from './playbook-spec';

function validate(value: unknown): string[] {
  const validator = new Validator(JSON.parse(JSON.stringify(PLAYBOOK_SPEC_SCHEMA)) as Schema, '2020-12', false);
  return validator.validate(value).errors.map((error) => `${error.instanceLocation} ${error.error}`);
}

/** Every $def and property of the schema, with the path it sits at. */
function schemaNodes(value: unknown, at: string, found: Array<{ at: string; node: Record<string, unknown> }>): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  const node = value as Record<string, unknown>;
  for (const group of ['$defs', 'properties'] as const) {
    const children = node[group];
    if (typeof children !== 'object' || children === null) continue;
    for (const [key, child] of Object.entries(children)) {
      if (typeof child === 'object' && child !== null) found.push({ at: `${at}.${key}`, node: child as Record<string, unknown> });
      schemaNodes(child, `${at}.${key}`, found);
    }
  }
}

const echo = { name: 'echo', exec: { script: 'echo hello', env: [{ name: 'REASON', value: '{{ params.reason }}' }] } };

const missionControl = {
  apiVersion: 'mission-control.flanksource.com/v1',
  kind: 'Playbook',
  metadata: { name: 'restart-pod', namespace: 'ops', labels: { team: 'k8s' } },
  spec: {
    title: 'Restart pod',
    category: 'Kubernetes',
    templatesOn: 'host',
    runsOn: ['local'],
    configs: [{ types: ['Kubernetes::Pod'], tagSelector: 'cluster=prod' }],
    parameters: [
      { name: 'reason', label: 'Reason', properties: { multiline: 'true', maxLength: '200' } },
      { name: 'size', type: 'list', properties: { options: [{ label: 'Small', value: 's' }, 'm'] } },
      { name: 'replicas', default: 3, properties: { format: 'number', min: '1', max: 10 } },
    ],
    actions: [
      { ...echo, timeout: '1m', if: 'success()' },
      { name: 'call', delay: '30s', http: { url: 'https://example.test/{{ params.reason }}', method: 'POST', headers: [{ name: 'X-A', value: 'b' }], body: '{}', templateBody: true } },
      { name: 'query', sql: { connection: 'connection://db', query: 'select $1', args: ['{{ config.name }}'] } },
      { name: 'tell', if: 'always()', notification: { connection: 'connection://slack', title: 'Done', message: 'ok', properties: { channel: '#ops' } } },
    ],
    approval: { type: 'all', approvers: { people: ['admin@opsdeck.local'], teams: ['ops'] } },
  },
};

describe('playbook spec JSON schema', () => {
  it('accepts a Mission Control Playbook resource', () => {
    expect(validate(missionControl)).toEqual([]);
  });

  it('accepts the spec alone as well as the whole resource', () => {
    expect(validate(missionControl.spec)).toEqual([]);
    expect(validate({ actions: [echo] })).toEqual([]);
  });

  it('refuses a spec without actions', () => {
    expect(validate({ title: 'x' }).join('\n')).toContain('actions');
    expect(validate({ actions: [] })).not.toEqual([]);
  });

  it('refuses the action types this server does not run, and an action with none or two', () => {
    for (const type of ['gitops', 'pod', 'ai', 'azureDevopsPipeline', 'github', 'logs']) {
      expect(validate({ actions: [{ name: 'a', [type]: {} }] }).join('\n')).toContain('/actions/0');
    }
    expect(validate({ actions: [{ name: 'a' }] })).not.toEqual([]);
    expect(validate({ actions: [{ name: 'a', exec: { script: 'x' }, http: { url: 'https://x.test' } }] })).not.toEqual([]);
    expect(validate({ actions: [{ ...echo, retry: { limit: 2 } }] })).not.toEqual([]);
  });

  it('refuses runsOn other than local', () => {
    expect(validate({ runsOn: ['agent-1'], actions: [echo] }).join('\n')).toContain('/runsOn/0');
    expect(validate({ actions: [{ ...echo, runsOn: ['agent-1'] }] })).not.toEqual([]);
  });

  it('accepts templates in scripts and queries, retries, CEL delays and methods in any case', () => {
    expect(validate({ actions: [{ name: 'a', exec: { script: 'echo {{.params.x}}' } }] })).toEqual([]);
    expect(validate({ actions: [{ name: 'a', sql: { connection: 'c', query: "select '{{.params.x}}'" } }] })).toEqual([]);
    expect(validate({ actions: [{ ...echo, delay: 'params.delay', retry: { limit: 2, duration: '10s', exponent: { multiplier: 2 } } }] })).toEqual([]);
    expect(validate({ actions: [{ name: 'a', http: { url: 'https://x.test', method: 'post' } }] })).toEqual([]);
  });

  it('refuses the fields that would change what a playbook does and that this server does not run', () => {
    for (const field of ['on', 'timeout', 'filters', 'permissions', 'env', 'mcp']) {
      expect(validate({ [field]: {}, actions: [echo] }), field).not.toEqual([]);
    }
    for (const field of ['setup', 'artifacts']) {
      expect(validate({ actions: [{ name: 'a', exec: { script: 'x', [field]: {} } }] }).join('\n'), field).toContain('/actions/0/exec');
    }
    expect(validate({ templatesOn: 'agent', actions: [echo] })).not.toEqual([]);
    expect(validate({ on: { canary: [{ event: 'failed', labels: { team: 'payments' } }], component: [{ event: 'unhealthy', filter: 'true' }] }, actions: [echo] })).toEqual([]);
    expect(validate({ on: { webhook: { path: 'deploy-hook', authentication: { basic: { username: 'ci', password: { value: 'p4ss' } } } } }, actions: [echo] })).toEqual([]);
    for (const on of [{ webhook: { path: 'x' } }, { webhook: { path: 'x', authentication: { jwt: { jwksURI: 'https://x' } } } }, { config: [{ event: 'created' }] }, { component: [{ event: 'error' }] }]) {
      expect(validate({ on, actions: [echo] }), JSON.stringify(on)).not.toEqual([]);
    }
    expect(validate({ actions: [{ name: 'a', exec: { script: 'x', connections: { aws: { connection: 'c' } } } }] })).toEqual([]);
    expect(validate({ env: [{ name: 'git_url', value: '{{.params.x}}' }], actions: [echo] })).toEqual([]);
    expect(validate({ env: [{ name: 'token', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }], actions: [echo] })).not.toEqual([]);
    expect(validate({ actions: [{ name: 'a', exec: { script: 'x', checkout: { url: 'https://git.example/ops.git', branch: 'main' } } }] })).toEqual([]);
    expect(validate({ actions: [{ name: 'a', exec: { script: 'x', checkout: { url: 'https://git.example/ops.git', password: 'x' } } }] })).not.toEqual([]);
    expect(validate({ actions: [{ name: 'a', exec: { script: 'x', connections: { fromConfigItem: '{{.config.id}}' } } }] })).toEqual([]);
    expect(validate({ actions: [{ name: 'a', exec: { script: 'x', connections: { eksPodIdentity: true } } }] })).not.toEqual([]);
  });

  it('refuses durations without units, parameter names that are not names and list parameters without options', () => {
    expect(validate({ actions: [{ ...echo, timeout: '30' }] }).join('\n')).toContain('/actions/0/timeout');
    expect(validate({ parameters: [{ name: '9 lives' }], actions: [echo] }).join('\n')).toContain('/parameters/0/name');
    expect(validate({ parameters: [{ name: 'size', type: 'list' }], actions: [echo] })).not.toEqual([]);
    expect(validate({ parameters: [{ name: 'a', type: 'slider' }], actions: [echo] })).not.toEqual([]);
  });

  it('refuses incomplete http, sql and notification actions, approvals without approvers and empty selectors', () => {
    expect(validate({ actions: [{ name: 'a', http: { method: 'GET' } }] })).not.toEqual([]);
    expect(validate({ actions: [{ name: 'a', sql: { query: 'select 1' } }] })).not.toEqual([]);
    expect(validate({ actions: [{ name: 'a', notification: { connection: 'c', title: 't' } }] })).not.toEqual([]);
    expect(validate({ actions: [echo], approval: { approvers: {} } })).not.toEqual([]);
    expect(validate({ actions: [echo], approval: { approvers: { people: [] } } })).not.toEqual([]);
    expect(validate({ actions: [echo], configs: [{}] })).not.toEqual([]);
    expect(validate({ actions: [echo], checks: [{ agent: 'x' }] })).not.toEqual([]);
  });

  it('describes every field it names', () => {
    const nodes: Array<{ at: string; node: Record<string, unknown> }> = [];
    schemaNodes(PLAYBOOK_SPEC_SCHEMA, '', nodes);
    const undocumented = nodes.filter(({ node }) => node.$ref === undefined && typeof node.description !== 'string');
    expect(undocumented.map(({ at }) => at)).toEqual([]);
  });
});
