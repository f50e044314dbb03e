import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/**
 * Playbooks written here in the shapes Mission Control publishes (its fixtures and docs), one per feature of ADR 0071,
 * saved through the data API as YAML exactly as they would be pasted. Each is accepted and reads back as written, or is
 * refused with OD_PLAYBOOK_SPEC naming the field.
 */
function resource(name: string, spec: string): string {
  return `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata:\n  name: ${name}\n  namespace: mc\nspec:\n${spec}`;
}

const ACCEPTED: Record<string, string> = {
  'exec-checkout': `  actions:
    - name: git
      exec:
        script: ls
        checkout:
          url: https://git.example.test/repo
          connection: connection://github/private-token
`,
  'delete-config-by-name': `  configs:
    - types: [Kubernetes::ConfigMap]
  actions:
    - name: delete
      exec:
        script: kubectl delete configmap {{.config.name}} --namespace={{.config.tags.namespace}}
`,
  'scale-with-parameters': `  parameters:
    - name: replicas
      label: Replicas
      default: "2"
    - name: dryRun
      type: checkbox
  actions:
    - name: scale
      exec:
        script: |
          kubectl scale --replicas={{ .params.replicas }} deployment/{{.component.name}} {{- if eq .params.dryRun "true" }} --dry-run=client{{ end }}
`,
  'pipelines-and-functions': `  checks:
    - types: [http]
  actions:
    - name: report
      exec:
        script: |
          echo "{{ .check.name | toUpper }} on {{ index .check.labels "pod" }} ({{ .params.filters | default "" }})"
          echo {{ . | toJSON | shellQuote }} | jq .
`,
  'query-with-literal': `  parameters:
    - name: name
  actions:
    - name: lookup
      sql:
        connection: connection://mc/postgres
        query: |
          SELECT id, name FROM people WHERE name = '{{.params.name}}' AND created_at > now() - interval '{{ .params.days | default "7" }} days'
`,
  'webhook-post-json': `  parameters:
    - name: message
  actions:
    - name: send
      http:
        url: https://hooks.example.test/incident/{{.params.message}}
        method: post
        headers:
          - name: Content-Type
            value: application/json
        templateBody: true
        body: |
          {"text": "{{.params.message}} by {{.user.email}}", "at": "{{ (time.Now).Format "2006-01-02" }}"}
`,
  'notify-on-check': `  checks:
    - types: [http]
  actions:
    - name: tell
      notification:
        connection: connection://mc/slack
        title: Check {{.check.name}} is {{.check.status}}
        message: "{{ getLastAction.status | default \\"first\\" }}"
`,
  'delayed-by-parameter': `  parameters:
    - name: delay
      default: "0"
  actions:
    - name: start
      exec:
        script: echo start
    - name: later
      if: 'params.delay != "0" && success()'
      delay: params.delay
      exec:
        script: date
`,
  'retry-with-backoff': `  actions:
    - name: flaky
      retry:
        limit: 2
        duration: 10s
        exponent:
          multiplier: 2
      http:
        url: https://status.example.test/health
        method: GET
`,
  'aws-cli-with-connection': `  actions:
    - name: list
      exec:
        script: aws s3 ls s3://{{.params.bucket}}
        connections:
          aws:
            connection: connection://mc/aws
`,
  'dollar-delimiter-body': `  parameters:
    - name: issueDetails
      type: secret
  actions:
    - name: send-alert
      http:
        url: https://hooks.example.test/alert
        method: POST
        templateBody: true
        body: |
          {"alert": "Cloud Storage Access Issue", "details": "$(params.issueDetails)"}
`,
  'signed-aws-request': `  parameters:
    - name: domain
  actions:
    - name: Create RFC
      http:
        url: https://amscm.us-east-1.amazonaws.com/
        method: POST
        awsSigV4:
          connection: connection://aws/ams
          service: amscm
          region: us-east-1
        headers:
          - name: Content-Type
            value: application/x-amz-json-1.1
        body: |
          {"Title": "Grant admin access - $(.params.domain)"}
`,
  'exec-artifacts': `  actions:
    - name: etcd logs
      exec:
        script: |
          mkdir -p /tmp/kubectl-logs
          echo logs > /tmp/kubectl-logs/etcd
        artifacts:
          - path: /tmp/kubectl-logs/*
`,
  'templates-on-host': `  templatesOn: host
  actions:
    - name: echo
      templatesOn: host
      exec:
        script: echo "{{.params.x}}"
`,
};

const REFUSED: Array<{ name: string; spec: string; path: string }> = [
  {
    name: 'python-with-template',
    path: 'spec.actions[0].exec.script',
    spec: `  actions:
    - name: py
      exec:
        script: |
          #!/usr/bin/env python3
          print("{{.params.x}}")
`,
  },
  {
    name: 'exec-connections-eks-pod-identity',
    path: 'spec.actions[0].exec.connections.eksPodIdentity',
    spec: `  actions:
    - name: list
      exec:
        script: aws s3 ls
        connections:
          eksPodIdentity: true
`,
  },
  {
    name: 'exec-checkout-password',
    path: 'spec.actions[0].exec.checkout.password',
    spec: `  actions:
    - name: git
      exec:
        script: ls
        checkout:
          url: https://git.example.test/repo
          password: t0ken
`,
  },
  {
    name: 'spec-env-from-secret',
    path: 'spec.env[0].valueFrom',
    spec: `  env:
    - name: token
      valueFrom:
        secretKeyRef: {name: site, key: JWT}
  actions:
    - name: call
      exec:
        script: 'curl -H "Authorization: Bearer {{.env.token}}" http://localhost'
`,
  },
  {
    name: 'catalog-event-trigger',
    path: 'spec.on.config',
    spec: `  on:
    config:
      - event: created
  actions:
    - name: tell
      exec:
        script: echo created
`,
  },
  {
    name: 'unknown-template-function',
    path: 'spec.actions[0].notification.message',
    spec: `  actions:
    - name: tell
      notification:
        connection: connection://mc/slack
        title: Backup
        message: '{{slackSectionTextMD "failed"}}'
`,
  },
  {
    name: 'ai-action',
    path: 'spec.actions[0].ai',
    spec: `  actions:
    - name: ask
      ai:
        connection: connection://mc/openai
`,
  },
];

describe('Mission Control playbooks pasted through the data API', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.cookieFor('admin');
  });
  afterAll(async () => {
    await server.close();
  });

  const save = (name: string, yaml: string) =>
    server.call('POST', '/api/db/playbooks', admin, { name: `${name}-${randomBytes(3).toString('hex')}`, spec: yaml }, { prefer: 'return=representation' });

  it.each(Object.entries(ACCEPTED))('accepts %s and keeps every action as written', async (name, spec) => {
    const reply = await save(name, resource(name, spec));
    expect(reply.status, reply.text).toBe(201);
    const [row] = reply.json as unknown as Array<{ id: string; spec: { actions: Array<Record<string, unknown>> } }>;
    const read = await server.call('GET', `/api/db/playbooks?id=eq.${row?.id ?? ''}&select=spec`, admin);
    const [stored] = read.json as unknown as Array<{ spec: { actions: Array<Record<string, unknown>> } }>;
    expect(stored?.spec.actions.length).toBeGreaterThan(0);
    const script = stored?.spec.actions.find((action) => action.exec !== undefined)?.exec as { script?: string } | undefined;
    if (script?.script !== undefined) expect(spec).toContain(script.script.split('\n')[0]?.trim() ?? '');
  });

  it.each(REFUSED)('refuses $name with OD_PLAYBOOK_SPEC naming $path', async ({ name, spec, path }) => {
    const reply = await save(name, resource(name, spec));
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json).toMatchObject({ code: 'OD_PLAYBOOK_SPEC', details: path });
    expect(typeof reply.json.hint).toBe('string');
  });
});
