import { describe, expect, it } from 'vitest';
import { updateBody } from '@/lib/settings-resources/api/update-resource';
import { hiddenColumns } from '@/lib/settings-resources/settings-resource-kind';
import { INCIDENT_RULES_KIND } from './incident-rules-kind';

describe('Incident Rules settings kind', () => {
  it('reads its status view and hides Schedule and Namespace (spec 002 §2.2)', () => {
    expect(INCIDENT_RULES_KIND.listView).toBe('incident_rules_with_status');
    expect([...hiddenColumns(INCIDENT_RULES_KIND)]).toEqual(['schedule', 'namespace']);
  });

  it('gives rules only their spec', () => {
    expect(INCIDENT_RULES_KIND.tabs).toEqual(['spec']);
  });

  it('sends a rule all of the form fields', () => {
    const input = { name: 'Storage', namespace: 'default', labels: {}, spec: {} };
    expect(updateBody(INCIDENT_RULES_KIND, input, 'person-1')).toEqual({ ...input, created_by: 'person-1' });
  });
});
