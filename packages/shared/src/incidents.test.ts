import { describe, expect, it } from 'vitest';
import {
  allowedStatusTargets,
  asksForDefinitionOfDone,
  canChangeStatus,
  childHypothesisType,
  DEFINITION_OF_DONE_DEFAULT_SCRIPTS,
  DEFINITION_OF_DONE_SHORTCUTS,
  formatMention,
  headerStatusAction,
  INCIDENT_STATUSES,
  logEvidenceLineIndexes,
  mentionsToPlainText,
  parseMentions,
  severityRank,
  RESPONDER_TYPES,
  responderProgressStep,
  validateResponderProperties,
} from './incidents';
import { INCIDENT_SEVERITIES, INCIDENT_TYPES, SEVERITIES } from './constants';

describe('incident status transitions', () => {
  it('lets a new incident move to any status', () => {
    expect(allowedStatusTargets('new')).toEqual(INCIDENT_STATUSES);
  });

  it('follows the table of spec 000 §4 for every other status', () => {
    expect(allowedStatusTargets('open')).toEqual(['open', 'investigating', 'mitigated', 'resolved', 'closed']);
    expect(allowedStatusTargets('investigating')).toEqual(['investigating', 'mitigated', 'resolved', 'closed']);
    expect(allowedStatusTargets('mitigated')).toEqual(['mitigated', 'resolved', 'closed', 'open']);
    expect(allowedStatusTargets('resolved')).toEqual(['resolved', 'closed', 'open']);
    expect(allowedStatusTargets('closed')).toEqual(['closed', 'open']);
  });

  it('always allows staying in the current status and never allows going back to new', () => {
    for (const status of INCIDENT_STATUSES) {
      expect(canChangeStatus(status, status)).toBe(true);
      if (status !== 'new') expect(canChangeStatus(status, 'new')).toBe(false);
    }
  });

  it('refuses moves the table does not list', () => {
    expect(canChangeStatus('investigating', 'open')).toBe(false);
    expect(canChangeStatus('closed', 'resolved')).toBe(false);
    expect(canChangeStatus('resolved', 'investigating')).toBe(false);
  });

  it('asks for the definition of done only when moving to mitigated or resolved', () => {
    expect(INCIDENT_STATUSES.filter(asksForDefinitionOfDone)).toEqual(['mitigated', 'resolved']);
  });

  it('offers Close on every incident that is not closed, and Reopen on a closed one', () => {
    for (const status of ['new', 'open', 'investigating', 'mitigated', 'resolved'] as const) {
      expect(headerStatusAction(status), status).toEqual({ label: 'Close', target: 'closed' });
      expect(canChangeStatus(status, 'closed'), status).toBe(true);
    }
    expect(headerStatusAction('closed')).toEqual({ label: 'Reopen', target: 'open' });
  });

  it('keeps 8 incident types and 7 severities in the full list', () => {
    expect(INCIDENT_TYPES).toHaveLength(8);
    expect(SEVERITIES).toHaveLength(7);
    expect(INCIDENT_SEVERITIES).toEqual(['low', 'medium', 'high', 'blocker', 'critical']);
  });

  it('ranks severities from info up to critical, with no severity below them all', () => {
    const ranked = [...SEVERITIES].reverse().sort((a, b) => severityRank(a) - severityRank(b));
    expect(ranked).toEqual(['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical']);
    expect(severityRank(null)).toBe(0);
    expect(severityRank('info')).toBe(1);
    expect(severityRank('critical')).toBe(7);
  });
});

describe('hypotheses', () => {
  it('nests root to factor to solution and gives a solution no child', () => {
    expect(childHypothesisType('root')).toBe('factor');
    expect(childHypothesisType('factor')).toBe('solution');
    expect(childHypothesisType('solution')).toBeNull();
  });
});

describe('definition of done scripts', () => {
  it('offers the Component is Health shortcut for topology evidence', () => {
    expect(DEFINITION_OF_DONE_SHORTCUTS.topology).toEqual([{ label: 'Component is Health', script: 'status == healthy' }]);
  });

  it('suggests a check healthy for over five minutes and a resolved analysis', () => {
    expect(DEFINITION_OF_DONE_DEFAULT_SCRIPTS.check).toBe('status == healthy && age > duration("5m")');
    expect(DEFINITION_OF_DONE_DEFAULT_SCRIPTS.config_analysis).toBe('status == resolved');
  });
});

describe('log evidence lines', () => {
  it('keeps three lines of context around each selected line', () => {
    expect(logEvidenceLineIndexes(20, [10])).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });

  it('clips the context at both ends and merges overlapping windows', () => {
    expect(logEvidenceLineIndexes(6, [1, 4])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(logEvidenceLineIndexes(100, [0, 99])).toEqual([0, 1, 2, 3, 96, 97, 98, 99]);
  });

  it('ignores selections outside the lines', () => {
    expect(logEvidenceLineIndexes(3, [-1, 7])).toEqual([]);
  });
});

describe('responders', () => {
  it('asks for every field of a type with the spec message', () => {
    expect(validateResponderProperties('email', { to: 'ops@example.com', subject: ' ' })).toEqual({
      subject: 'Please provide valid value',
      body: 'Please provide valid value',
    });
    expect(Object.keys(validateResponderProperties('jira', {}))).toEqual(['project', 'issueType', 'priority', 'summary', 'description', 'instance']);
    expect(Object.keys(validateResponderProperties('vmware', {}))).toEqual(['product', 'category', 'description', 'body']);
    expect(Object.keys(validateResponderProperties('ms_planner', {}))).toEqual(['plan_id', 'bucket_id', 'priority', 'title', 'description', 'instance']);
    expect(Object.keys(validateResponderProperties('aws_ams_services_request', {}))).toEqual(['category', 'description', 'body']);
  });

  it('accepts complete properties and types without fields', () => {
    expect(validateResponderProperties('email', { to: 'a@b.c', subject: 's', body: 'b' })).toEqual({});
    expect(validateResponderProperties('service_now', {})).toEqual({});
    expect(RESPONDER_TYPES).toContain('aws_support');
  });

  it('puts a responder on the first step whose time is missing', () => {
    const t = '2024-01-01T00:00:00Z';
    expect(responderProgressStep({ acknowledge_time: null, signoff_time: null, close_time: null })).toBe('Created');
    expect(responderProgressStep({ acknowledge_time: t, signoff_time: null, close_time: t })).toBe('Acknowledged');
    expect(responderProgressStep({ acknowledge_time: t, signoff_time: t, close_time: null })).toBe('Resolved');
    expect(responderProgressStep({ acknowledge_time: t, signoff_time: t, close_time: t })).toBe('Closed');
  });
});

describe('mentions', () => {
  const id = '7b0c2f1e-1111-4a4a-9c9c-0123456789ab';

  it('round-trips a display name and user id through the markup', () => {
    const text = `ping ${formatMention({ name: 'Cora Commander', id })} please`;
    expect(text).toBe(`ping @[Cora Commander](user:${id}) please`);
    expect(parseMentions(text)).toEqual([{ name: 'Cora Commander', id }]);
  });

  it('escapes brackets inside names', () => {
    const text = formatMention({ name: 'Ops [EU]', id });
    expect(parseMentions(text)).toEqual([{ name: 'Ops [EU]', id }]);
    expect(mentionsToPlainText(`hi ${text}`)).toBe('hi @Ops [EU]');
  });
});
