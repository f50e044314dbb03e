import { describe, expect, it } from 'vitest';
import type { PlaybookAction, PlaybookParameter } from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import {
  TEMPLATE_OUTPUT_LIMIT,
  checkConditionSyntax,
  checkTemplateSyntax,
  evaluateCondition,
  renderAction,
  renderTemplate,
  renderSpecEnv,
  evaluateDelay,
  resolveParameterDefaults,
  templateDialect,
} from './templating';
import type { ActionState, TemplateContext } from './types';
import { CatalogTraversal, type TraversedItem, type TraverseQuestion } from './catalog-traverse';

function context(overrides: Partial<TemplateContext> = {}): TemplateContext {
  return {
    params: { namespace: 'shop', replicas: '3' },
    config: { id: 'c1', name: 'checkout', type: 'Kubernetes::Deployment', tags: { cluster: 'eu-1' }, created_at: new Date('2026-01-02T03:04:05Z') },
    playbook: { id: 'p1', name: 'scale', title: 'Scale' },
    run: { id: 'r1' },
    user: { id: 'u1', name: 'Ada', email: 'ada@example.com' },
    actions: {},
    ...overrides,
  };
}

function completed(stdout: string): ActionState {
  return { status: 'completed', error: null, result: { stdout, exitCode: 0 } };
}

async function renderError(text: string, ctx = context()): Promise<AppError> {
  const error: unknown = await renderTemplate(text, ctx).catch((caught: unknown) => caught);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('renderTemplate', () => {
  it('reads the parameters, the target and the playbook', async () => {
    await expect(renderTemplate('kubectl -n {{ params.namespace }} scale {{ config.name }} --replicas={{ params.replicas }}', context())).resolves.toBe(
      'kubectl -n shop scale checkout --replicas=3',
    );
    await expect(renderTemplate('{{ config.tags.cluster }}/{{ playbook.name }}/{{ run.id }}/{{ user.email }}', context())).resolves.toBe(
      'eu-1/scale/r1/ada@example.com',
    );
  });

  it("reads the results of earlier actions by name", async () => {
    const ctx = context({ actions: { first: completed('pod-1\n') } });
    await expect(renderTemplate("{{ actions['first'].result.stdout | strip }}:{{ actions.first.status }}", ctx)).resolves.toBe('pod-1:completed');
  });

  it('accepts Mission Control Go-style references with a leading dot', async () => {
    await expect(renderTemplate('{{.params.namespace}}/{{ .config.name }}/{{- .params.replicas -}}', context())).resolves.toBe('shop/checkout/3');
  });

  it('prints objects as JSON and dates as ISO text', async () => {
    await expect(renderTemplate('{{ config.tags }} {{ config.created_at }}', context())).resolves.toBe('{"cluster":"eu-1"} 2026-01-02T03:04:05.000Z');
  });

  it('renders a missing value as nothing', async () => {
    await expect(renderTemplate('[{{ params.nope }}][{{ component.name }}]', context())).resolves.toBe('[][]');
  });

  it('renders text without template syntax as it is', async () => {
    await expect(renderTemplate('plain text', context())).resolves.toBe('plain text');
  });

  it.each(['{% include "secrets" %}', '{% render "/etc/passwd" %}', '{% layout "base" %}', '{% liquid\ninclude "x" %}'])(
    'refuses %j, which would read a file',
    async (text) => {
      const error = await renderError(text);
      expect(error.code).toBe('OD_PLAYBOOK_TEMPLATE');
      expect(error.message).toContain('not found');
    },
  );

  it('gives nothing for prototype properties', async () => {
    await expect(
      renderTemplate('[{{ params.constructor }}][{{ params.__proto__ }}][{{ params.namespace.constructor.constructor }}][{{ config.toString }}]', context()),
    ).resolves.toBe('[][][][]');
  });

  it('refuses an unknown filter rather than skipping it', async () => {
    const error = await renderError('{{ params.namespace | shell }}');
    expect(error.message).toContain('undefined filter: shell');
  });

  it('stops a loop that allocates too much', async () => {
    const error = await renderError('{% for i in (1..100000000) %}x{% endfor %}');
    expect(error.message).toContain('limit exceeded');
  });

  it('stops a loop that renders for too long', async () => {
    const error = await renderError('{% for a in (1..1000) %}{% for b in (1..1000) %}{% for c in (1..1000) %}{% endfor %}{% endfor %}{% endfor %}');
    expect(error.message).toContain('template render limit exceeded');
  });

  it('refuses output longer than the limit', async () => {
    const ctx = context({ params: { chunk: 'x'.repeat(1000) } });
    const loops = TEMPLATE_OUTPUT_LIMIT / 1000 + 1;
    const error = await renderError(`{% for i in (1..${loops}) %}{{ params.chunk }}{% endfor %}`, ctx);
    expect(error.message).toContain(`more than ${TEMPLATE_OUTPUT_LIMIT} characters`);
  });

  it('names the field it could not render', async () => {
    const error: unknown = await renderTemplate('{{ x | nope }}', context(), 'check.http.url').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'OD_PLAYBOOK_TEMPLATE', statusCode: 400, details: 'check.http.url' });
  });
});

describe('renderAction', () => {
  it('gives templates last_result, the result of the action that ran last', async () => {
    const ctx = context({ actions: { fetch: { status: 'completed', error: null, result: { count: 4, rows: [] } } } });
    await expect(renderTemplate('{{ $rows := index last_result "count" }}Found {{ $rows }} changes', ctx)).resolves.toBe('Found 4 changes');
  });

  it("renders a templated http method, as Mission Control's web_request playbook takes it from a parameter", async () => {
    const action: PlaybookAction = { name: 'call', http: { url: 'https://example.com', method: '{{ params.method }}' } };
    const rendered = await renderAction(action, context({ params: { method: 'patch' } }));
    expect(rendered.http?.method).toBe('PATCH');
  });

  it('renders only the templated fields of each action type and leaves the original alone', async () => {
    const action: PlaybookAction = {
      name: 'all',
      timeout: '1m',
      exec: { script: 'echo "$NS"', env: [{ name: 'NS', value: '{{ params.namespace }}' }] },
      http: {
        url: 'https://example.com/{{ config.name }}',
        method: 'POST',
        headers: [{ name: 'X-Run', value: '{{ run.id }}' }],
        body: '{"replicas": {{ params.replicas }}}',
      },
      sql: { query: 'select $1::text', args: ['{{ config.name }}'], connection: 'connection://db' },
      notification: { connection: 'connection://slack', title: 'Scaled {{ config.name }}', message: 'by {{ user.name }}', properties: { channel: '#{{ params.namespace }}' } },
    };
    const rendered = await renderAction(action, context());
    expect(rendered).toEqual({
      name: 'all',
      timeout: '1m',
      exec: { script: 'echo "$NS"', env: [{ name: 'NS', value: 'shop' }] },
      http: { url: 'https://example.com/checkout', method: 'POST', headers: [{ name: 'X-Run', value: 'r1' }], body: '{"replicas": 3}' },
      sql: { query: 'select $1::text', args: ['checkout'], connection: 'connection://db' },
      notification: { connection: 'connection://slack', title: 'Scaled checkout', message: 'by Ada', properties: { channel: '#shop' } },
    });
    expect(action.exec?.env?.[0]?.value).toBe('{{ params.namespace }}');
  });

  it('renders a script with each value as a quoted variable reference and the value in its env', async () => {
    const ctx = context({ params: { namespace: 'x"; rm -rf / #', replicas: '3' } });
    const action: PlaybookAction = { name: 'code', exec: { script: 'kubectl -n {{.params.namespace}} scale {{ if .params.replicas }}--replicas={{.params.replicas}}{{ end }}', env: [{ name: 'A', value: 'b' }] } };
    const rendered = await renderAction(action, ctx);
    expect(rendered.exec).toEqual({
      script: 'kubectl -n "${OPSDECK_TEMPLATE_1}" scale --replicas="${OPSDECK_TEMPLATE_2}"',
      env: [
        { name: 'A', value: 'b' },
        { name: 'OPSDECK_TEMPLATE_1', value: 'x"; rm -rf / #' },
        { name: 'OPSDECK_TEMPLATE_2', value: '3' },
      ],
    });
  });

  it("reads the action's own env as .env, and drops a final shellQuote the placement makes needless", async () => {
    const action: PlaybookAction = { name: 'code', exec: { script: "echo {{ .env.GREETING | shellQuote }} '{{.env.MISSING}}'", env: [{ name: 'GREETING', value: 'hi {{.config.name}}' }] } };
    const rendered = await renderAction(action, context());
    expect(rendered.exec?.script).toBe(`echo "\${OPSDECK_TEMPLATE_1}" ''"\${OPSDECK_TEMPLATE_2}"''`);
    expect(rendered.exec?.env?.slice(1)).toEqual([
      { name: 'OPSDECK_TEMPLATE_1', value: 'hi checkout' },
      { name: 'OPSDECK_TEMPLATE_2', value: '<no value>' },
    ]);
  });

  it('leaves the values of a query as markers the sql runner binds, and fails where a value would be code', async () => {
    const rendered = await renderAction({ name: 'q', sql: { query: "select '{{.params.namespace}}'", connection: 'connection://db' } }, context());
    expect(rendered.sql?.query).not.toContain('shop');
    const refused = { name: 'code', exec: { script: 'echo $(( {{.params.replicas}} + 1 ))' } };
    await expect(renderAction(refused, context())).rejects.toMatchObject({ code: 'OD_PLAYBOOK_TEMPLATE', details: 'code.exec.script' });
  });

  it('encodes URL values, refuses header values with a line break and escapes JSON body values', async () => {
    const ctx = context({ params: { namespace: 'a/b?c', replicas: '"}' } });
    const action: PlaybookAction = {
      name: 'call',
      http: { url: 'https://example.com/ns/{{.params.namespace}}?r={{.params.replicas}}', body: '{"r": "{{.params.replicas}}"}', headers: [{ name: 'Content-Type', value: 'application/json' }] },
    };
    const rendered = await renderAction(action, ctx);
    expect(rendered.http?.url).toBe('https://example.com/ns/a%2Fb%3Fc?r=%22%7D');
    expect(JSON.parse(String(rendered.http?.body))).toEqual({ r: '"}' });
    const header = { name: 'h', http: { url: 'https://example.com', headers: [{ name: 'X-A', value: '{{.params.namespace}}' }] } };
    await expect(renderAction(header, context({ params: { namespace: 'a\r\nX-Admin: 1' } }))).rejects.toMatchObject({ details: 'h.http.headers[0].value' });
  });

  it('never renders a sealed value: the envelope is opened after, for where the rendered action points', async () => {
    const sealed = { $encrypted: 'AgAAAAB7e3BhcmFtcy5uYW1lc3BhY2V9fQ==' };
    const action: PlaybookAction = {
      name: 'call',
      http: { url: 'https://example.com/{{ config.name }}', headers: [{ name: 'Authorization', value: sealed }], body: sealed },
      notification: { connection: 'connection://slack', title: 't', message: 'm', properties: { token: sealed } },
    };
    const rendered = await renderAction(action, context());
    expect(rendered.http).toEqual({ url: 'https://example.com/checkout', headers: [{ name: 'Authorization', value: sealed }], body: sealed });
    expect(rendered.notification?.properties).toEqual({ token: sealed });
  });

  it("renders Mission Control's $( ) actions in a body, parentheses and bare context names included, as the ams and secret-parameter fixtures write them", async () => {
    const ctx = context({ params: { namespace: 'a,b', replicas: '3' } });
    const action: PlaybookAction = {
      name: 'call',
      http: {
        url: 'https://example.com/$(.config.name)',
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        body: '{"ns": "$(range $i, $e := (.params.namespace | split ","))$(if $i),$(end)$(. | trim)$(end)", "n": $(toInt .params.replicas), "by": "$(user.email)"}',
      },
    };
    const rendered = await renderAction(action, ctx);
    expect(rendered.http?.url).toBe('https://example.com/checkout');
    expect(JSON.parse(String(rendered.http?.body))).toEqual({ ns: 'a,b', n: 3, by: 'ada@example.com' });
  });

  it("keeps a script's $(command) as the shell's and places a $(.field) action's value, which never becomes code", async () => {
    const ctx = context({ params: { namespace: 'x"; rm -rf / #', replicas: '$(.params.replicas)' } });
    const action: PlaybookAction = { name: 'code', exec: { script: 'n=$(date +%s); kubectl -n $(.params.namespace) get pods $(echo $(.params.replicas))' } };
    const rendered = await renderAction(action, ctx);
    expect(rendered.exec).toEqual({
      script: 'n=$(date +%s); kubectl -n "${OPSDECK_TEMPLATE_1}" get pods $(echo "${OPSDECK_TEMPLATE_2}")',
      env: [
        { name: 'OPSDECK_TEMPLATE_1', value: 'x"; rm -rf / #' },
        { name: 'OPSDECK_TEMPLATE_2', value: '$(.params.replicas)' },
      ],
    });
  });

  it('never reads a value a $( ) action rendered as a template again', async () => {
    const ctx = context({ params: { namespace: '$(.user.email)', replicas: '{{.user.email}}' } });
    const rendered = await renderAction({ name: 'n', notification: { connection: 'connection://slack', title: '$(.params.namespace) {{.params.replicas}}', message: 'm' } }, ctx);
    expect(rendered.notification?.title).toBe('$(.user.email) {{.user.email}}');
  });

  it('says which action and field failed to render', async () => {
    const action: PlaybookAction = { name: 'call', http: { url: 'https://example.com', headers: [{ name: 'A', value: '{{ x | nope }}' }] } };
    await expect(renderAction(action, context())).rejects.toMatchObject({ code: 'OD_PLAYBOOK_TEMPLATE', details: 'call.http.headers[0].value' });
  });
});

describe('resolveParameterDefaults', () => {
  it('renders each default for the chosen target and leaves the rest of the definition as it is', async () => {
    const parameters: PlaybookParameter[] = [
      { name: 'name', type: 'text', default: '{{ config.name }}' },
      { name: 'cluster', type: 'text', default: '{{.config.tags.cluster}}', properties: { maxLength: 10 } },
      { name: 'force', type: 'checkbox', default: 'false' },
      { name: 'note', type: 'text' },
    ];
    await expect(resolveParameterDefaults(parameters, context({ params: {} }))).resolves.toEqual([
      { name: 'name', type: 'text', default: 'checkout' },
      { name: 'cluster', type: 'text', default: 'eu-1', properties: { maxLength: 10 } },
      { name: 'force', type: 'checkbox', default: 'false' },
      { name: 'note', type: 'text' },
    ]);
  });

  it('leaves a default that cannot be rendered empty instead of failing', async () => {
    const parameters: PlaybookParameter[] = [{ name: 'name', type: 'text', default: '{% include "x" %}' }];
    await expect(resolveParameterDefaults(parameters, context())).resolves.toEqual([{ name: 'name', type: 'text', default: '' }]);
  });
});

describe('checkTemplateSyntax', () => {
  it('accepts templates, Go-style ones included', () => {
    expect(checkTemplateSyntax("{{ params.a | upcase }} {{.config.name}} {% if params.b == 'x' %}y{% endif %}")).toBeNull();
    expect(checkTemplateSyntax('{{ if .params.a }}{{ .params.a | lower }}{{ end }}')).toBeNull();
    expect(templateDialect('{{.params.a}}')).toBe('go');
    expect(templateDialect('{{ params.a }}')).toBe('liquid');
  });

  it("refuses at save a $( ) action this server cannot run, and a Liquid text that also holds one", () => {
    expect(checkTemplateSyntax('{"a": "$(nope .params.x)"}')).toMatch(/function "nope" not defined/);
    expect(checkTemplateSyntax('echo $(date) $(hostname -f)', true, true)).toBeNull();
    expect(checkTemplateSyntax('echo $(.params.x | nope)', true, true)).toMatch(/function "nope" not defined/);
    expect(checkTemplateSyntax('{{ params.x }} and $(.params.y)')).toMatch(/mixes Liquid/);
  });

  it('explains a template that does not parse, without rendering it', () => {
    expect(checkTemplateSyntax('{{ params.a ')).toMatch(/not closed/);
    expect(checkTemplateSyntax('{% include "x" %}')).toContain('tag "include" not found');
    expect(checkTemplateSyntax('{{ params.a | nope }}')).toContain('undefined filter: nope');
  });
});

describe('evaluateCondition', () => {
  it("reads the last action's result through last_result(), as action-result.yaml writes its condition", () => {
    const counted = (count: number): ActionState => ({ status: 'completed', error: null, result: { count, rows: [] } });
    expect(evaluateCondition('last_result().count > 0', context({ actions: { fetch: counted(3) } }))).toBe(true);
    expect(evaluateCondition('last_result().count > 0', context({ actions: { first: counted(5), fetch: counted(0) } }))).toBe(false);
    expect(evaluateCondition('size(last_result()) == 0', context())).toBe(true);
  });

  const failed: ActionState = { status: 'failed', error: 'exit status 1', result: { exitCode: 1 } };
  const skipped: ActionState = { status: 'skipped', error: null, result: null };

  it('runs an action with no condition only when no earlier action failed', () => {
    expect(evaluateCondition(undefined, context())).toBe(true);
    expect(evaluateCondition('  ', context({ actions: { first: completed(''), second: skipped } }))).toBe(true);
    expect(evaluateCondition(undefined, context({ actions: { first: failed } }))).toBe(false);
  });

  it('answers success(), failure() and always() from the earlier actions', () => {
    const ok = context({ actions: { first: completed('') } });
    const broken = context({ actions: { first: completed(''), second: failed } });
    expect([evaluateCondition('success()', ok), evaluateCondition('failure()', ok), evaluateCondition('always()', ok)]).toEqual([true, false, true]);
    expect([evaluateCondition('success()', broken), evaluateCondition('failure()', broken), evaluateCondition('always()', broken)]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('reads params, the target and earlier actions', () => {
    const ctx = context({ actions: { first: completed('ready') } });
    expect(evaluateCondition('params.namespace == "shop" && config.name == "checkout"', ctx)).toBe(true);
    expect(evaluateCondition('config.tags.cluster == "eu-2"', ctx)).toBe(false);
    expect(evaluateCondition('actions.first.result.exitCode == 0 && actions["first"].result.stdout.startsWith("ready")', ctx)).toBe(true);
    expect(evaluateCondition('success() && int(params.replicas) > 2', ctx)).toBe(true);
  });

  it('sees empty maps for the target types the run does not have', () => {
    expect(evaluateCondition('size(component) == 0 && !has(check.name)', context())).toBe(true);
  });

  it.each([
    ['params.namespace ==', 'Unexpected token'],
    ['params.namespace', 'not a bool'],
    ['params.missing == "x"', 'No such key: missing'],
    ['launch()', 'no matching overload'],
  ])('refuses %j with OD_PLAYBOOK_CONDITION', (expression, problem) => {
    let caught: unknown;
    try {
      evaluateCondition(expression, context());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: 'OD_PLAYBOOK_CONDITION', statusCode: 400 });
    expect((caught as AppError).message).toContain(problem);
  });
});

describe('checkConditionSyntax', () => {
  it.each(['success()', 'always()', 'failure() || params.force == "true"', 'config.name.startsWith("api")', 'actions.first.status == "failed"'])(
    'accepts %j',
    (expression) => {
      expect(checkConditionSyntax(expression)).toBeNull();
    },
  );

  it('explains a condition that does not parse', () => {
    expect(checkConditionSyntax('success() &&')).toContain('Unexpected token');
  });

  it('explains a condition that uses unknown names or returns no bool', () => {
    expect(checkConditionSyntax('env.HOME == "/"')).toContain('Unknown variable: env');
    expect(checkConditionSyntax('"yes"')).toBe('it must return a bool, not string');
  });
});

describe('evaluateDelay', () => {
  it('reads a duration as written, and CEL returning a duration or its text', () => {
    expect(evaluateDelay('30s', context())).toBe(30_000);
    expect(evaluateDelay('params.delay', context({ params: { delay: '5m' } }))).toBe(300_000);
    expect(evaluateDelay('params.delay', context({ params: { delay: '0' } }))).toBe(0);
    expect(evaluateDelay('duration("90s")', context())).toBe(90_000);
  });

  it('fails with OD_PLAYBOOK_DELAY when the answer is not a duration', () => {
    expect(() => evaluateDelay('params.delay', context({ params: { delay: 'soon' } }))).toThrow(expect.objectContaining({ code: 'OD_PLAYBOOK_DELAY' }));
    expect(() => evaluateDelay('1 + 2', context())).toThrow(expect.objectContaining({ code: 'OD_PLAYBOOK_DELAY' }));
  });
});

function item(name: string, config: unknown): TraversedItem {
  return {
    ID: `id-${name}`, Name: name, Type: 'Kubernetes::GitRepository', ConfigClass: 'GitRepository', Status: null, Health: null, Ready: null, Description: null,
    Config: JSON.stringify(config), Tags: {}, Labels: {}, ParentID: null, Path: '', AgentID: null, ScraperID: null, ExternalID: [], CreatedAt: '', UpdatedAt: '',
  };
}

/** A traversal over a fixed graph, counting how many loads it made and what each asked. */
function fakeTraversal(answer: (question: TraverseQuestion) => TraversedItem[]): { traversal: CatalogTraversal; loads: TraverseQuestion[][] } {
  const loads: TraverseQuestion[][] = [];
  const traversal = new CatalogTraversal(async (questions) => {
    loads.push([...questions]);
    return questions.map(answer);
  });
  return { traversal, loads };
}

describe('spec.env', () => {
  const repo = item('flux-system', { spec: { url: 'https://git.example/repo.git', ref: { branch: 'main' } } });

  it('renders each value once over the run, and every action reads them as .env', async () => {
    const env = await renderSpecEnv([{ name: 'ns', value: '{{ .params.namespace | upper }}' }, { name: 'who', value: '{{ user.name }}' }], context());
    expect(env).toEqual({ ns: 'SHOP', who: 'Ada' });
    const action: PlaybookAction = { name: 'post', http: { url: 'https://hooks.example/{{ .env.ns }}', body: '{"who": "{{ .env.who }}"}' } };
    const rendered = await renderAction(action, context({ env }));
    expect(rendered.http?.url).toBe('https://hooks.example/SHOP');
    expect(rendered.http?.body).toBe('{"who": "Ada"}');
  });

  it("does not let one env value read another, nor the earlier actions, as Mission Control renders them", async () => {
    const env = await renderSpecEnv([{ name: 'a', value: 'x' }, { name: 'b', value: '{{ .env.a }}|{{ len .actions }}' }], context({ actions: { first: completed('y') } }));
    expect(env.b).toBe('<no value>|0');
  });

  it("lets an exec action's own env entry win over spec.env for that action", async () => {
    const action: PlaybookAction = { name: 'run', exec: { script: 'echo {{ .env.ns }}', env: [{ name: 'ns', value: 'mine-{{ .env.ns }}' }] } };
    const rendered = await renderAction(action, context({ env: { ns: 'spec' } }));
    expect(rendered.exec?.env?.find((entry) => entry.name === 'ns')?.value).toBe('mine-spec');
    expect(rendered.exec?.env?.find((entry) => entry.name.startsWith('OPSDECK_TEMPLATE_'))?.value).toBe('mine-spec');
  });

  it('keeps a value that looks like a template as text, and places it in a script as a variable', async () => {
    const env = await renderSpecEnv([{ name: 'name', value: '{{ .params.x }}' }], context({ params: { x: '{{ .params.y }}"; touch /tmp/pwned #' } }));
    expect(env.name).toBe('{{ .params.y }}"; touch /tmp/pwned #');
    const rendered = await renderAction({ name: 'run', exec: { script: 'echo {{ .env.name }}' } }, context({ env }));
    expect(rendered.exec?.script).toBe('echo "${OPSDECK_TEMPLATE_1}"');
    expect(rendered.exec?.env).toEqual([{ name: 'OPSDECK_TEMPLATE_1', value: env.name }]);
  });

  it('fails naming the entry when a value does not render, rather than leaving it empty', async () => {
    const error: unknown = await renderSpecEnv([{ name: 'git_url', value: '{{ .params.nope.url }}' }], context()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/^The template of spec\.env\.git_url could not be rendered: /);
  });

  it("answers catalog_traverse as duty does, loading each question once and rendering again with the answers", async () => {
    const { traversal, loads } = fakeTraversal((question) => (question.types[0] === 'Kubernetes::GitRepository' ? [repo] : []));
    const ctx = context({ params: { k: 'k-1' }, traversal });
    const env = await renderSpecEnv(
      [
        { name: 'git_url', value: '{{ (index (catalog_traverse .params.k "Kubernetes::GitRepository") 0).Config | json | jq ".spec.url" }}' },
        { name: 'git_branch', value: '{{ (index (catalog_traverse .params.k "Kubernetes::GitRepository" "incoming") 0).Config | json | jq ".spec.ref.branch" }}' },
        { name: 'pods', value: '{{ len (catalog_traverse .params.k "Kubernetes::Pod" "outgoing") }}' },
      ],
      ctx,
    );
    expect(env).toEqual({ git_url: 'https://git.example/repo.git', git_branch: 'main', pods: '0' });
    expect(loads).toEqual([[{ id: 'k-1', types: ['Kubernetes::GitRepository'], direction: 'incoming' }], [{ id: 'k-1', types: ['Kubernetes::Pod'], direction: 'outgoing' }]]);
  });

  it('fails a catalog_traverse call with a direction duty does not have, and one made where no run reads the catalog', async () => {
    const { traversal } = fakeTraversal(() => []);
    await expect(renderSpecEnv([{ name: 'x', value: '{{ catalog_traverse "k" "T" "sideways" }}' }], context({ traversal }))).rejects.toThrow(/direction is incoming or outgoing/);
    await expect(renderTemplate('{{ catalog_traverse "k" "T" }}', context())).rejects.toThrow(/action fields and spec.env only/);
  });

  it('stops a template that keeps asking new catalog_traverse questions after a bounded number of renders', async () => {
    let next = 0;
    const { traversal } = fakeTraversal(() => [item(`r${(next += 1)}`, {})]);
    const chain = '{{ $a := index (catalog_traverse "s" "T") 0 }}{{ $b := index (catalog_traverse $a.ID "T") 0 }}{{ $c := index (catalog_traverse $b.ID "T") 0 }}{{ $d := index (catalog_traverse $c.ID "T") 0 }}{{ $e := index (catalog_traverse $d.ID "T") 0 }}{{ $e.Name }}';
    await expect(renderSpecEnv([{ name: 'x', value: chain }], context({ traversal }))).rejects.toThrow(/still asking new questions after 5 renders/);
  });
});
