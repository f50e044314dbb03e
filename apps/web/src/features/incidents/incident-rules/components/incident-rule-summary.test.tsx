import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { INCIDENT_RULE_EXAMPLE_SPEC, incidentRuleSpecProblems } from '@opsdeck/shared';
import { renderWithProviders } from '@/test/render';
import { INCIDENT_RULES_KIND } from '../incident-rules-kind';
import { IncidentRuleSummary } from './incident-rule-summary';

function terms(): Record<string, string> {
  const summary = screen.getByRole('region', { name: 'What this rule does' });
  const keys = within(summary).getAllByRole('term').map((term) => term.textContent ?? '');
  const values = within(summary).getAllByRole('definition').map((value) => value.textContent ?? '');
  return Object.fromEntries(keys.map((key, i) => [key, values[i] ?? '']));
}

describe('incident rule editor', () => {
  it('starts a new rule from an example the schema accepts, and lists what the schema refuses', () => {
    expect(INCIDENT_RULES_KIND.newSpec).toBe(INCIDENT_RULE_EXAMPLE_SPEC);
    expect(INCIDENT_RULES_KIND.specProblems?.(INCIDENT_RULE_EXAMPLE_SPEC)).toEqual([]);
    expect(incidentRuleSpecProblems({ filter: 'check.status == "unhealthy"' })).toEqual(['incident: Invalid input: expected object, received undefined']);
    expect(INCIDENT_RULES_KIND.specProblems?.({ ...INCIDENT_RULE_EXAMPLE_SPEC, groupWindow: '5s' })).toEqual(['groupWindow: must be between 1m and 30d']);
  });

  it('says in words what a valid rule does', () => {
    renderWithProviders(
      <IncidentRuleSummary
        spec={{
          ...INCIDENT_RULE_EXAMPLE_SPEC,
          autoResolve: false,
          responders: { teams: ['Platform'], people: ['responder@opsdeck.local'] },
        }}
      />,
    );
    expect(terms()).toEqual({
      Watches: 'alerts',
      'Matches when': "alert.severity == 'critical'",
      // The title is quoted by <q>, which adds the marks in CSS rather than in the text.
      Opens: '{{ alert.name }} is firing · availability · critical',
      Groups: 'by alert.labels.alertname, joining an open incident matched within 30m',
      Resolves: 'by hand only',
      Responders: 'team Platform, responder@opsdeck.local',
    });
  });

  it('shows nothing for a spec the schema refuses', () => {
    renderWithProviders(<IncidentRuleSummary spec={{ filter: 'true' }} />);
    expect(screen.queryByRole('region', { name: 'What this rule does' })).not.toBeInTheDocument();
  });
});
