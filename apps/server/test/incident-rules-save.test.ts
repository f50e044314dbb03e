import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateIncidentRuleSpec } from '../src/modules/incident-rules/incident-rule-save-rules';
import { startTestServer, type TestServer } from './harness';

const VALID_SPEC = {
  sources: ['alert'],
  filter: "alert.severity == 'critical'",
  incident: { title: '{{ alert.name }} is firing', type: 'availability', severity: 'critical' },
  groupBy: ['alert.labels.alertname'],
  groupWindow: '30m',
};

describe('incident rule save rules', () => {
  let server: TestServer;
  let editor: string;

  beforeAll(async () => {
    server = await startTestServer();
    editor = await server.cookieFor('responder');
  });
  afterAll(async () => {
    await server.close();
  });

  const save = (spec: unknown, cookie = editor) =>
    server.call('POST', '/api/db/incident_rules', cookie, spec === undefined ? { name: 'no spec' } : { name: 'rule under test', spec }, { prefer: 'return=representation' });

  it('keeps both demo rules valid under the shared schema, CEL and templates', async () => {
    const rules = await server.pool.query<{ name: string; spec: unknown }>(`select name, spec from incident_rules where deleted_at is null order by name`);
    expect(rules.rows.map((rule) => rule.name)).toEqual(expect.arrayContaining(['Checkout checks failing', 'Critical alerts page the on-call']));
    for (const rule of rules.rows) expect(() => validateIncidentRuleSpec(rule.spec)).not.toThrow();
  });

  it('saves a valid rule for a responder', async () => {
    const reply = await save(VALID_SPEC);
    expect(reply.status).toBe(201);
  });

  it('refuses a rule without a spec or with a field of the wrong shape, naming the field', async () => {
    const missing = await save(undefined);
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('OD_INCIDENT_RULE_SPEC');

    const severity = await save({ ...VALID_SPEC, incident: { ...VALID_SPEC.incident, severity: 'apocalyptic' } });
    expect(severity.status).toBe(400);
    expect(severity.json).toMatchObject({ code: 'OD_INCIDENT_RULE_SPEC', details: 'spec.incident.severity' });

    const window = await save({ ...VALID_SPEC, groupWindow: 'soon' });
    expect(window.json).toMatchObject({ code: 'OD_INCIDENT_RULE_SPEC', details: 'spec.groupWindow' });
    expect(window.json.message).toContain('must be a duration');

    const unknownField = await save({ ...VALID_SPEC, groupby: ['alert.name'] });
    expect(unknownField.json.code).toBe('OD_INCIDENT_RULE_SPEC');

    const source = await save({ ...VALID_SPEC, sources: ['config'] });
    expect(source.json).toMatchObject({ code: 'OD_INCIDENT_RULE_SPEC', details: 'spec.sources.0' });
  });

  it('refuses a filter that does not compile, with the CEL error in the message', async () => {
    const syntax = await save({ ...VALID_SPEC, filter: "alert.severity == 'critical' &&" });
    expect(syntax.status).toBe(400);
    expect(syntax.json).toMatchObject({ code: 'OD_INCIDENT_RULE_FILTER', details: 'spec.filter' });
    expect(String(syntax.json.message)).toMatch(/^The incident rule's filter is not a valid CEL expression: .+/);

    const unknownVariable = await save({ ...VALID_SPEC, filter: "config.type == 'x'" });
    expect(unknownVariable.json.code).toBe('OD_INCIDENT_RULE_FILTER');
    expect(String(unknownVariable.json.message)).toContain('config');

    const notBool = await save({ ...VALID_SPEC, filter: '1 + 2' });
    expect(notBool.json.code).toBe('OD_INCIDENT_RULE_FILTER');
    expect(String(notBool.json.message)).toContain('must return a bool');
  });

  it('refuses a title that is not a template and responders that do not exist', async () => {
    const template = await save({ ...VALID_SPEC, incident: { ...VALID_SPEC.incident, title: '{{ alert.name ' } });
    expect(template.json).toMatchObject({ code: 'OD_INCIDENT_RULE_TEMPLATE', details: 'spec.incident.title' });

    const team = await save({ ...VALID_SPEC, responders: { teams: ['Platform', 'Nobody Team'] } });
    expect(team.status).toBe(400);
    expect(team.json).toMatchObject({ code: 'OD_INCIDENT_RULE_RESPONDER', details: 'spec.responders.teams' });
    expect(team.json.message).toContain("'Nobody Team'");

    const person = await save({ ...VALID_SPEC, responders: { people: ['ghost@opsdeck.local'] } });
    expect(person.json).toMatchObject({ code: 'OD_INCIDENT_RULE_RESPONDER', details: 'spec.responders.people' });

    const known = await save({ ...VALID_SPEC, responders: { teams: ['Platform'], people: ['Responder@opsdeck.local'] } });
    expect(known.status).toBe(201);
  });

  it('checks a PATCH of the spec and leaves other PATCHes alone', async () => {
    const created = await save(VALID_SPEC);
    const id = (JSON.parse(created.text) as Array<{ id: string }>)[0]?.id ?? '';
    const bad = await server.call('PATCH', `/api/db/incident_rules?id=eq.${id}`, editor, { spec: { ...VALID_SPEC, filter: '' } });
    expect(bad.json.code).toBe('OD_INCIDENT_RULE_SPEC');
    const rename = await server.call('PATCH', `/api/db/incident_rules?id=eq.${id}`, editor, { labels: { team: 'sre' } });
    expect(rename.status).toBe(204);
  });

  it('refuses a viewer with 403 and an anonymous caller with 401', async () => {
    const viewer = await server.cookieFor('viewer');
    expect((await save(VALID_SPEC, viewer)).status).toBe(403);
    expect((await save(VALID_SPEC, '')).status).toBe(401);
  });
});
