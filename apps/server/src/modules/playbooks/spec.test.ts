import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { durationMs, parsePlaybookResource, parsePlaybookSpec, playbookSpecRunsCode } from './spec';

const missionControlYaml = `
apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: restart-pod
  namespace: ops
spec:
  title: Restart pod
  category: Kubernetes
  icon: kubernetes
  description: Deletes the pod so its deployment makes a new one
  runsOn: [local]
  templatesOn: host
  configs:
    - types: [Kubernetes::Pod]
      tagSelector: cluster=prod
  parameters:
    - name: reason
      label: Reason
      properties:
        multiline: "true"
        maxLength: "200"
    - name: replicas
      type: text
      default: 3
      properties:
        format: number
        min: "1"
        max: "10"
    - name: size
      type: list
      properties:
        options:
          - label: Small
            value: s
          - m
  actions:
    - name: restart
      timeout: 1m
      exec:
        script: kubectl delete pod "$CONFIG_NAME" -n "$PARAM_NAMESPACE"
        env:
          - name: REASON
            value: "{{ params.reason }}"
    - name: tell
      if: always()
      notification:
        connection: connection://ops/slack
        title: Restarted {{ config.name }}
        message: "{{ actions['restart'].result.stdout }}"
`;

/** The failure a parse throws: its code, the field path and the message. */
function refusal(raw: unknown): { code: string; path: string | null; message: string; hint: string | null } {
  try {
    parsePlaybookSpec(raw);
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, path: error.details, message: error.message, hint: error.hint };
    throw error;
  }
  throw new Error('the spec was accepted');
}

function withAction(action: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, actions: [action] };
}

const echo = { name: 'echo', exec: { script: 'echo hello' } };

describe('parsing playbook specs', () => {
  it('accepts a pasted Mission Control resource, keeping its metadata', () => {
    const { spec, metadata } = parsePlaybookResource(missionControlYaml);
    expect(metadata).toEqual({ name: 'restart-pod', namespace: 'ops' });
    expect(spec.title).toBe('Restart pod');
    expect(spec.category).toBe('Kubernetes');
    expect(spec).not.toHaveProperty('runsOn');
    expect(spec.configs).toEqual([{ types: ['Kubernetes::Pod'], tagSelector: 'cluster=prod' }]);
    expect(spec.actions.map((action) => action.name)).toEqual(['restart', 'tell']);
    expect(spec.actions[1]?.if).toBe('always()');
  });

  it('turns parameter properties written as text into native values and defaults the type to text', () => {
    const parameters = parsePlaybookSpec(missionControlYaml).parameters ?? [];
    expect(parameters[0]).toEqual({ name: 'reason', label: 'Reason', type: 'text', properties: { multiline: true, maxLength: 200 } });
    expect(parameters[1]).toEqual({ name: 'replicas', type: 'text', default: '3', properties: { format: 'number', min: 1, max: 10 } });
    expect(parameters[2]?.properties?.options).toEqual([
      { label: 'Small', value: 's' },
      { label: 'm', value: 'm' },
    ]);
  });

  it('parses its own output to the same spec, so a stored spec reads back unchanged', () => {
    const once = parsePlaybookSpec(missionControlYaml);
    expect(parsePlaybookSpec(once)).toEqual(once);
  });

  it('accepts the spec alone, as an object or as JSON text', () => {
    expect(parsePlaybookResource(withAction(echo)).metadata).toBeNull();
    expect(parsePlaybookSpec(JSON.stringify(withAction(echo))).actions).toEqual([echo]);
  });

  it('refuses a spec without actions, and text that is not YAML', () => {
    expect(refusal({ title: 'x' })).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', path: 'spec.actions' });
    expect(refusal({ actions: [] }).path).toBe('spec.actions');
    expect(refusal('actions: [').message).toContain('is not valid YAML');
    expect(refusal(null).path).toBe('spec');
  });

  it('refuses actions without a name, with a repeated name, or with no or two action types', () => {
    expect(refusal(withAction({ exec: { script: 'true' } })).path).toBe('spec.actions[0].name');
    expect(refusal({ actions: [echo, { ...echo }] })).toMatchObject({ path: 'spec.actions[1].name', message: expect.stringContaining("'echo' is the name of another action") });
    expect(refusal(withAction({ name: 'a' })).message).toContain('exec, http, sql and notification');
    expect(refusal(withAction({ name: 'a', exec: { script: 'true' }, http: { url: 'https://x.test' } })).path).toBe('spec.actions[0]');
  });

  it('refuses the Mission Control action types this server does not run, naming the four it runs', () => {
    for (const type of ['gitops', 'pod', 'ai', 'azureDevopsPipeline', 'github', 'logs', 'prometheus', 'report', 'catalog']) {
      const found = refusal(withAction({ name: 'a', [type]: {} }));
      expect(found.path).toBe(`spec.actions[0].${type}`);
      expect(found.message).toContain(`is a ${type} action, which this server does not run: it runs exec, http, sql and notification actions`);
    }
  });

  it('refuses runsOn other than local, at the top and on an action', () => {
    expect(refusal(withAction(echo, { runsOn: ['agent-1'] }))).toMatchObject({ path: 'spec.runsOn', hint: 'Remove runsOn, or write runsOn: [local]' });
    expect(refusal(withAction({ ...echo, runsOn: ['local', 'agent-1'] })).path).toBe('spec.actions[0].runsOn');
    expect(parsePlaybookSpec(withAction({ ...echo, runsOn: [] }, { runsOn: ['local'] })).actions).toEqual([echo]);
  });

  it('checks durations: their format, a timeout of at most 1h and a delay of at most 24h', () => {
    expect(parsePlaybookSpec(withAction({ ...echo, timeout: '1h', delay: '1h30m' })).actions[0]).toMatchObject({ timeout: '1h', delay: '1h30m' });
    expect(refusal(withAction({ ...echo, timeout: '61m' })).message).toContain("'61m' is longer than the 1h allowed");
    expect(refusal(withAction({ ...echo, timeout: '0s' })).path).toBe('spec.actions[0].timeout');
    expect(refusal(withAction({ ...echo, delay: '25h' })).path).toBe('spec.actions[0].delay');
    expect(refusal(withAction({ ...echo, delay: 'soon' })).message).toContain('is neither a duration nor a CEL expression');
    expect(refusal(withAction({ ...echo, timeout: '30' })).path).toBe('spec.actions[0].timeout');
  });

  it('accepts Mission Control templates in scripts and queries, and refuses ones that do not parse', () => {
    const script = 'kubectl delete pod {{.config.name}} -n {{ .params.namespace | lower }}{{ if .params.force }} --force{{ end }}';
    expect(parsePlaybookSpec(withAction({ name: 'a', exec: { script } })).actions[0]?.exec?.script).toBe(script);
    const query = "select * from t where name = '{{.params.name}}'";
    expect(parsePlaybookSpec(withAction({ name: 'a', sql: { connection: 'connection://db', query } })).actions[0]?.sql?.query).toBe(query);
    expect(refusal(withAction({ name: 'a', exec: { script: 'echo {{ .x | nosuchfunction }}' } }))).toMatchObject({
      path: 'spec.actions[0].exec.script',
      message: expect.stringContaining('function "nosuchfunction" not defined'),
    });
    expect(refusal(withAction({ name: 'a', sql: { connection: 'connection://db', query: 'select {{ if .x }}1' } })).path).toBe('spec.actions[0].sql.query');
    expect(refusal(withAction({ name: 'a', exec: { script: 'echo {{ params.x | raw }}' } })).path).toBe('spec.actions[0].exec.script');
  });

  it('refuses templates in a script another interpreter than a POSIX shell runs, pointing to its environment', () => {
    const python = refusal(withAction({ name: 'a', exec: { script: '#!/usr/bin/env python3\nprint("{{.params.x}}")' } }));
    expect(python).toMatchObject({ path: 'spec.actions[0].exec.script', message: expect.stringContaining('python3') });
    expect(python.hint).toContain('os.environ');
    expect(parsePlaybookSpec(withAction({ name: 'a', exec: { script: '#!/bin/bash\necho {{.params.x}}' } })).actions[0]?.exec?.script).toContain('{{.params.x}}');
  });

  it('takes retry as Mission Control writes it, and a CEL delay', () => {
    const action = parsePlaybookSpec(withAction({ ...echo, delay: 'params.delay', retry: { limit: 2, duration: '10s', exponent: { multiplier: 2 }, jitter: 10 } })).actions[0];
    expect(action).toMatchObject({ delay: 'params.delay', retry: { limit: 2, duration: '10s', exponent: { multiplier: 2 }, jitter: 10 } });
    expect(refusal(withAction({ ...echo, retry: { limit: 0, duration: '10s' } })).path).toBe('spec.actions[0].retry.limit');
    expect(refusal(withAction({ ...echo, retry: { limit: 2 } })).path).toBe('spec.actions[0].retry.duration');
    expect(refusal(withAction({ ...echo, retry: { limit: 2, duration: '10s', backoff: 'x' } })).path).toBe('spec.actions[0].retry.backoff');
    expect(refusal(withAction({ ...echo, delay: '1 + 2' })).path).toBe('spec.actions[0].delay');
  });

  it.each([
    ['on.config', { on: { config: [{ event: 'created' }] } }, 'spec.on.config'],
    ['a webhook without authentication', { on: { webhook: { path: 'hook' } } }, 'spec.on.webhook.authentication'],
    ['a webhook with jwt authentication', { on: { webhook: { path: 'hook', authentication: { jwt: { jwksURI: 'https://idp.example/jwks' } } } } }, 'spec.on.webhook.authentication.jwt'],
    ['a webhook path of two segments', { on: { webhook: { path: 'a/b', authentication: { github: { token: 't0ken-value' } } } } }, 'spec.on.webhook.path'],
    ['a webhook secret from a reference', { on: { webhook: { path: 'hook', authentication: { github: { token: { valueFrom: { secretKeyRef: { name: 'gh', key: 'token' } } } } } } } }, 'spec.on.webhook.authentication.github.token.valueFrom'],
    ['an event components do not have', { on: { component: [{ event: 'error' }] } }, 'spec.on.component[0].event'],
    ['a filter that is not a CEL bool', { on: { canary: [{ event: 'failed', filter: 'check.name +' }] } }, 'spec.on.canary[0].filter'],
    ['on with nothing to listen to', { on: {} }, 'spec.on'],
    ['timeout', { timeout: '10m' }, 'spec.timeout'],
    ['permissions', { permissions: [{ role: 'admin' }] }, 'spec.permissions'],
    ['env from a secret reference', { env: [{ name: 'token', valueFrom: { secretKeyRef: { name: 'site', key: 'jwt' } } }] }, 'spec.env[0].valueFrom'],
    ['an env entry named twice', { env: [{ name: 'path', value: 'a' }, { name: 'path', value: 'b' }] }, 'spec.env[1].name'],
    ['an env name templates cannot read', { env: [{ name: 'git-url', value: 'a' }] }, 'spec.env[0].name'],
    ['an env value that does not parse', { env: [{ name: 'path', value: '{{ .params.x | nosuchfunction }}' }] }, 'spec.env[0].value'],
    ['an env entry with another field', { env: [{ name: 'path', value: 'a', secret: true }] }, 'spec.env[0].secret'],
    ['an unknown field', { mcp: { title: 'x' } }, 'spec.mcp'],
    ['templatesOn: agent', { templatesOn: 'agent' }, 'spec.templatesOn'],
  ])('refuses %s on the spec by name rather than ignoring it', (_what, extra, path) => {
    expect(refusal(withAction(echo, extra))).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', path });
  });

  it("reads spec.env as Mission Control's catalog-traversal fixture writes it, with catalog_traverse in its templates", () => {
    const env = [
      { name: 'path', value: '{{ .params.kustomization.config | json | jq ".spec.path" }}\n' },
      { name: 'git_url', value: '{{ (index (catalog_traverse .params.kustomization.id "Kubernetes::GitRepository") 0).Config | json | jq ".spec.url" }}' },
      { name: 'git_branch', value: '{{ (index (catalog_traverse .params.kustomization.id "Kubernetes::GitRepository" "incoming") 0).Config | json | jq ".spec.ref.branch" }}' },
    ];
    expect(parsePlaybookSpec(withAction(echo, { env })).env).toEqual(env);
  });

  it("reads on.webhook as Mission Control's webhook-trigger fixture writes it", () => {
    const spec = parsePlaybookSpec(withAction(echo, { on: { webhook: { path: 'my-webhook', authentication: { basic: { username: { value: 'my-username' }, password: { value: 'my-password' } } } } } }));
    expect(spec.on).toEqual({ webhook: { path: 'my-webhook', authentication: { basic: { username: 'my-username', password: 'my-password' } } } });
  });

  it('reads on.canary and on.component triggers with their labels and filter', () => {
    const spec = parsePlaybookSpec(
      withAction(echo, { on: { canary: [{ event: 'failed', labels: { alertname: 'KubePodCrashLooping' } }], component: [{ event: 'unhealthy', filter: "component.type == 'database'" }] } }),
    );
    expect(spec.on).toEqual({
      canary: [{ event: 'failed', labels: { alertname: 'KubePodCrashLooping' } }],
      component: [{ event: 'unhealthy', filter: "component.type == 'database'" }],
    });
  });

  it('takes secret, bytes, millicores and duration parameters, and refuses a default on a secret one and configs', () => {
    const parameters = parsePlaybookSpec(
      withAction(echo, {
        parameters: [
          { name: 'token', type: 'secret' },
          { name: 'memory', type: 'bytes' },
          { name: 'cpu', type: 'millicores' },
          { name: 'retention', type: 'duration', default: '15m', properties: { min: '5m', max: '1d' } },
        ],
      }),
    ).parameters;
    expect(parameters?.map((parameter) => parameter.type)).toEqual(['secret', 'bytes', 'millicores', 'duration']);
    expect(parameters?.[3]?.properties).toEqual({ min: 300_000, max: 86_400_000 });
    expect(refusal(withAction(echo, { parameters: [{ name: 'token', type: 'secret', default: 'hunter2' }] })).path).toBe('spec.parameters[0].default');
    expect(refusal(withAction(echo, { parameters: [{ name: 'items', type: 'configs' }] })).path).toBe('spec.parameters[0].type');
  });

  it('takes exec.connections naming stored aws, kubernetes and azure connections, and refuses the other kinds by name', () => {
    const connections = { aws: { connection: 'connection://ops/aws' }, kubernetes: { connection: 'connection://ops/prod' }, azure: { connection: 'azure-sub' } };
    const parsed = parsePlaybookSpec(withAction({ name: 'a', exec: { script: 'aws s3 ls', connections } }));
    expect(parsed.actions[0]?.exec?.connections).toEqual(connections);
    expect(parsePlaybookSpec(parsed)).toEqual(parsed);
    expect(parsePlaybookSpec(withAction({ name: 'a', exec: { script: 'x', connections: { fromConfigItem: '{{.config.id}}' } } })).actions[0]?.exec?.connections).toEqual({
      fromConfigItem: '{{.config.id}}',
    });
    expect(refusal(withAction({ name: 'a', exec: { script: 'x', connections: { fromConfigItem: '{{.config.id}}', kubernetes: { connection: 'k' } } } })).path).toBe(
      'spec.actions[0].exec.connections.fromConfigItem',
    );
    expect(refusal(withAction({ name: 'a', exec: { script: 'x', connections: { eksPodIdentity: true } } }))).toMatchObject({
      path: 'spec.actions[0].exec.connections.eksPodIdentity',
      hint: expect.stringContaining('aws: {connection:'),
    });
    expect(refusal(withAction({ name: 'a', exec: { script: 'x', connections: { aws: { accessKey: { value: 'AKIA' } } } } })).path).toBe('spec.actions[0].exec.connections.aws.accessKey');
  });

  it.each(['setup'])('refuses exec.%s by name, with what to do instead', (field) => {
    const problem = refusal(withAction({ name: 'a', exec: { script: 'true', [field]: {} } }));
    expect(problem).toMatchObject({ path: `spec.actions[0].exec.${field}`, message: expect.stringContaining('not run by this server') });
    expect(problem.hint).not.toBeNull();
  });

  it('takes http.awsSigV4 naming an aws connection, as ams-admin-access-grant.yaml writes it, and refuses keys written in the spec', () => {
    const sigV4 = { connection: 'connection://aws/ams', service: 'amscm', region: 'us-east-1' };
    expect(parsePlaybookSpec(withAction({ name: 'a', http: { url: 'https://amscm.us-east-1.amazonaws.com/', method: 'POST', awsSigV4: sigV4 } })).actions[0]?.http?.awsSigV4).toEqual(sigV4);
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', awsSigV4: { ...sigV4, secretKey: 'k' } } }))).toMatchObject({ path: 'spec.actions[0].http.awsSigV4.secretKey', hint: expect.stringMatching(/store them in an aws connection/) });
    expect(refusal(withAction({ name: 'a', http: { connection: 'connection://x/api', awsSigV4: sigV4 } })).path).toBe('spec.actions[0].http.awsSigV4');
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', awsSigV4: { connection: 'connection://aws/ams' } } })).path).toBe('spec.actions[0].http.awsSigV4.service');
  });

  it('refuses templateBody: false on a body that holds a template, which this server would template', () => {
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', templateBody: false, body: '{{.params.x}}' } })).path).toBe('spec.actions[0].http.templateBody');
    expect(parsePlaybookSpec(withAction({ name: 'a', http: { url: 'https://x.test', method: 'post', templateBody: true, body: '{{.params.x}}' } })).actions[0]?.http?.method).toBe('POST');
  });

  it('checks the template syntax of templated fields and the CEL of conditions', () => {
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test/{{ params.x' } })).path).toBe('spec.actions[0].http.url');
    expect(refusal(withAction({ name: 'a', exec: { script: 'true', env: [{ name: 'A', value: '{% if %}' }] } })).path).toBe('spec.actions[0].exec.env[0].value');
    expect(refusal(withAction({ name: 'a', notification: { connection: 'c', title: '{{ x', message: 'm' } })).path).toBe('spec.actions[0].notification.title');
    expect(refusal(withAction({ ...echo, if: 'success( &&' })).path).toBe('spec.actions[0].if');
    const goStyle = withAction({ name: 'a', exec: { script: 'true', env: [{ name: 'A', value: '{{.params.reason}}' }] } });
    expect(parsePlaybookSpec(goStyle).actions[0]?.exec?.env).toEqual([{ name: 'A', value: '{{.params.reason}}' }]);
    expect(parsePlaybookSpec(withAction({ ...echo, if: "failure() || params.env == 'prod'" })).actions[0]?.if).toBe("failure() || params.env == 'prod'");
  });

  it('refuses an http action without url or connection, with an unknown method, or with fields it does not run', () => {
    expect(refusal(withAction({ name: 'a', http: { method: 'GET' } })).path).toBe('spec.actions[0].http.url');
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', method: 'FETCH' } })).path).toBe('spec.actions[0].http.method');
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', method: '{{ params.method' } })).path).toBe('spec.actions[0].http.method');
    expect(parsePlaybookSpec(withAction({ name: 'a', http: { url: 'https://x.test', method: '{{.params.method}}' } })).actions[0]?.http?.method).toBe('{{.params.method}}');
    expect(refusal(withAction({ name: 'a', http: { url: 'ftp://x.test' } })).path).toBe('spec.actions[0].http.url');
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', password: 'x' } })).path).toBe('spec.actions[0].http.password');
    const action = parsePlaybookSpec(withAction({ name: 'a', http: { connection: 'connection://api', url: '/health', method: 'post' } })).actions[0];
    expect(action?.http).toEqual({ connection: 'connection://api', url: '/health', method: 'POST' });
  });

  it('takes a sealed value where a secret may stand, and nowhere else', () => {
    const sealed = { $encrypted: 'AgAAAAA=' };
    const action = parsePlaybookSpec(
      withAction({ name: 'a', http: { url: 'https://x.test', headers: [{ name: 'Authorization', value: sealed }], body: sealed } }),
    ).actions[0];
    expect(action?.http).toEqual({ url: 'https://x.test', headers: [{ name: 'Authorization', value: sealed }], body: sealed });
    expect(parsePlaybookSpec(withAction({ name: 'a', exec: { script: 'true', env: [{ name: 'A', value: sealed }] } })).actions[0]?.exec?.env).toEqual([{ name: 'A', value: sealed }]);
    const notification = withAction({ name: 'a', notification: { connection: 'c', title: 't', message: 'm', properties: { token: sealed } } });
    expect(parsePlaybookSpec(notification).actions[0]?.notification?.properties).toEqual({ token: sealed });
    expect(refusal(withAction({ name: 'a', http: { url: sealed } })).path).toBe('spec.actions[0].http.url');
    expect(refusal(withAction({ name: 'a', http: { url: 'https://x.test', headers: [{ name: 'A', value: { $encrypted: 'x', value: 'y' } }] } })).path).toBe(
      'spec.actions[0].http.headers[0].value',
    );
  });

  it('refuses an sql action without connection or query and a notification without connection, title or message', () => {
    expect(refusal(withAction({ name: 'a', sql: { query: 'select 1' } })).path).toBe('spec.actions[0].sql.connection');
    expect(refusal(withAction({ name: 'a', sql: { connection: 'connection://db' } })).path).toBe('spec.actions[0].sql.query');
    expect(refusal(withAction({ name: 'a', notification: { title: 't', message: 'm' } })).path).toBe('spec.actions[0].notification.connection');
    expect(refusal(withAction({ name: 'a', notification: { connection: 'c', message: 'm' } })).path).toBe('spec.actions[0].notification.title');
    expect(refusal(withAction({ name: 'a', notification: { connection: 'c', title: 't' } })).path).toBe('spec.actions[0].notification.message');
  });

  it('refuses exec env entries that are not variable names or that read values from elsewhere', () => {
    expect(refusal(withAction({ name: 'a', exec: { script: 'true', env: [{ name: '1A', value: 'x' }] } })).path).toBe('spec.actions[0].exec.env[0].name');
    expect(refusal(withAction({ name: 'a', exec: { script: 'true', env: [{ name: 'A', valueFrom: { secretKeyRef: {} } }] } })).path).toBe('spec.actions[0].exec.env[0].valueFrom');
  });

  it('takes exec.checkout of a repository with or without a stored connection, and refuses inline credentials and other schemes by name', () => {
    const checkout = (value: Record<string, unknown>): Record<string, unknown> => withAction({ name: 'a', exec: { script: 'true', checkout: value } });
    expect(parsePlaybookSpec(checkout({ url: 'github.com/flanksource/artifacts', branch: 'main', depth: 2 })).actions[0]?.exec?.checkout).toEqual({
      url: 'github.com/flanksource/artifacts',
      branch: 'main',
      depth: 2,
    });
    expect(refusal(checkout({ url: 'https://bot:t0ken@git.example/r' })).path).toBe('spec.actions[0].exec.checkout.url');
    expect(refusal(checkout({ url: 'ssh://git@git.example/r' })).path).toBe('spec.actions[0].exec.checkout.url');
    expect(parsePlaybookSpec(checkout({ url: 'https://git.example/r', connection: 'connection://github/pat' })).actions[0]?.exec?.checkout?.connection).toBe('connection://github/pat');
    expect(refusal(checkout({ url: 'https://git.example/r', password: 'x' })).path).toBe('spec.actions[0].exec.checkout.password');
    expect(refusal(checkout({ url: 'https://git.example/r', branch: '--upload-pack=touch /tmp/x' })).path).toBe('spec.actions[0].exec.checkout.branch');
  });

  it('checks parameters: unique names of letters, digits, _ and -, list options, regexes and bounds', () => {
    const spec = (parameters: unknown[]): Record<string, unknown> => withAction(echo, { parameters });
    expect(refusal(spec([{ name: 'a' }, { name: 'a' }])).path).toBe('spec.parameters[1].name');
    expect(refusal(spec([{ name: 'a-b' }, { name: 'A_b' }])).message).toContain("'A_b' and 'a-b' would both reach exec scripts as PARAM_A_B");
    expect(refusal(spec([{ name: '9lives' }])).path).toBe('spec.parameters[0].name');
    expect(refusal(spec([{ name: 'with space' }])).path).toBe('spec.parameters[0].name');
    expect(refusal(spec([{ name: 'size', type: 'list' }])).path).toBe('spec.parameters[0].properties.options');
    expect(refusal(spec([{ name: 'size', type: 'list', properties: { options: [] } }])).path).toBe('spec.parameters[0].properties.options');
    expect(refusal(spec([{ name: 'a', properties: { regex: '(' } }])).path).toBe('spec.parameters[0].properties.regex');
    expect(refusal(spec([{ name: 'a', properties: { min: 5, max: 1 } }])).path).toBe('spec.parameters[0].properties.min');
    expect(refusal(spec([{ name: 'a', properties: { minLength: '5', maxLength: '1' } }])).path).toBe('spec.parameters[0].properties.minLength');
    expect(refusal(spec([{ name: 'a', properties: { maxLength: 'many' } }])).path).toBe('spec.parameters[0].properties.maxLength');
    expect(refusal(spec([{ name: 'a', type: 'slider' }])).path).toBe('spec.parameters[0].type');
    expect(refusal(spec([{ name: 'a', properties: { size: 'huge' } }])).path).toBe('spec.parameters[0].properties.size');
    expect(parsePlaybookSpec(spec([{ name: 'command', type: 'code', properties: { language: 'Shell' } }])).parameters?.[0]?.properties).toEqual({ language: 'shell' });
    expect(refusal(spec([{ name: 'a', type: 'code', properties: { language: 'sh ell' } }])).path).toBe('spec.parameters[0].properties.language');
    expect(refusal(spec([{ name: 'a', default: '{{ config.name' }])).path).toBe('spec.parameters[0].default');
    expect(parsePlaybookSpec(spec([{ name: 'my-param_2', type: 'checkbox', required: 'false' }])).parameters).toEqual([{ name: 'my-param_2', type: 'checkbox', required: false }]);
  });

  it("reads Mission Control's comma-separated health in a selector as healths", () => {
    expect(parsePlaybookSpec(withAction(echo, { configs: [{ health: 'unhealthy, warning' }] })).configs).toEqual([{ healths: ['unhealthy', 'warning'] }]);
  });

  it('checks approvals name somebody and selectors name something that parses', () => {
    expect(refusal(withAction(echo, { approval: { approvers: {} } })).path).toBe('spec.approval.approvers');
    expect(refusal(withAction(echo, { approval: { type: 'some', approvers: { people: ['a@x.test'] } } })).path).toBe('spec.approval.type');
    expect(parsePlaybookSpec(withAction(echo, { approval: { approvers: { teams: ['ops'] } } })).approval).toEqual({ approvers: { teams: ['ops'] } });
    expect(refusal(withAction(echo, { configs: [{}] })).path).toBe('spec.configs[0]');
    expect(refusal(withAction(echo, { checks: [{ labelSelector: 'a in (x' }] })).path).toBe('spec.checks[0].labelSelector');
    expect(refusal(withAction(echo, { components: [{ agent: 'local' }] })).path).toBe('spec.components[0].agent');
    expect(parsePlaybookSpec(withAction(echo, { components: [{ types: 'Service', labels: { team: 'ops' } }] })).components).toEqual([{ types: ['Service'], labels: { team: 'ops' } }]);
  });

  it('refuses a resource of another kind', () => {
    expect(refusal({ kind: 'Canary', spec: withAction(echo) }).path).toBe('kind');
  });
});

describe('whether a playbook spec runs code (exec or sql)', () => {
  it('sees exec actions in the spec alone, inside a resource and in YAML text, and sql actions alike', () => {
    expect(playbookSpecRunsCode(withAction(echo))).toBe(true);
    expect(playbookSpecRunsCode({ kind: 'Playbook', spec: withAction(echo) })).toBe(true);
    expect(playbookSpecRunsCode(missionControlYaml)).toBe(true);
    expect(playbookSpecRunsCode(withAction({ name: 'h', http: { url: 'https://x.test' } }))).toBe(false);
    expect(playbookSpecRunsCode(undefined)).toBe(false);
    expect(playbookSpecRunsCode(withAction({ name: 'q', sql: { connection: 'connection://db', query: 'select 1' } }))).toBe(true);
    expect(playbookSpecRunsCode('actions:\n  - name: q\n    sql: {query: "x"\n  [')).toBe(true);
  });

  it('counts an exec action in a spec that does not validate or does not parse', () => {
    expect(playbookSpecRunsCode({ actions: [{ exec: {} }, 'junk'] })).toBe(true);
    expect(playbookSpecRunsCode('actions:\n  - name: a\n    exec: {script: "x"\n  [')).toBe(true);
  });
});

describe('durations', () => {
  it('reads durations with units and refuses the rest', () => {
    expect(durationMs('30s')).toBe(30_000);
    expect(durationMs('1h30m')).toBe(5_400_000);
    expect(durationMs('500ms')).toBe(500);
    expect(() => durationMs('5')).toThrow(AppError);
    expect(() => durationMs('five minutes')).toThrow(AppError);
  });
});
