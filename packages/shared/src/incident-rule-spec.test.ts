import { describe, expect, it } from 'vitest';
import { DEFAULT_GROUP_WINDOW, incidentRuleSpecJsonSchema, incidentRuleSpecProblems, resolveIncidentRuleSpec, incidentRuleSpecSchema } from './incident-rule-spec';

describe('incident rule spec', () => {
  it('fills the defaults: every source, no groupBy, a one-hour window and auto-resolve', () => {
    const spec = incidentRuleSpecSchema.parse({ filter: 'true', incident: { title: 't', type: 'availability', severity: 'high' } });
    expect(resolveIncidentRuleSpec(spec)).toMatchObject({ sources: ['check', 'component', 'alert'], groupBy: [], groupWindowMs: 3_600_000, autoResolve: true });
    expect(DEFAULT_GROUP_WINDOW).toBe('1h');
  });

  it('reads compound windows and refuses ones outside 1m to 30d, repeated sources and paths outside the three variables', () => {
    const base = { filter: 'true', incident: { title: 't', type: 'availability', severity: 'high' } };
    expect(resolveIncidentRuleSpec(incidentRuleSpecSchema.parse({ ...base, groupWindow: '1h30m' })).groupWindowMs).toBe(5_400_000);
    expect(incidentRuleSpecProblems({ ...base, groupWindow: '30d1m' })).toEqual(['groupWindow: must be between 1m and 30d']);
    expect(incidentRuleSpecProblems({ ...base, sources: ['alert', 'alert'] })).toEqual(['sources: list each source once']);
    expect(incidentRuleSpecProblems({ ...base, groupBy: ['config.name'] })).toEqual(['groupBy.0: must be a field path such as alert.labels.alertname or check.name']);
    expect(incidentRuleSpecProblems({ ...base, groupBy: ['component.labels.app.kubernetes.io/name'] })).toEqual([]);
  });

  it('gives the editor a JSON Schema that names the fields', () => {
    const schema = incidentRuleSpecJsonSchema() as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(['filter', 'sources', 'incident', 'groupBy', 'groupWindow', 'autoResolve', 'responders']);
    expect(schema.required).toEqual(['filter', 'incident']);
  });
});
