import { describe, expect, it } from 'vitest';
import { updateBody } from '@/lib/settings-resources/api/update-resource';
import { hiddenColumns } from '@/lib/settings-resources/settings-resource-kind';
import { TEAMS_KIND } from './teams-kind';

describe('Teams settings kind', () => {
  it('reads its status view and hides Schedule and Namespace (spec 002 §2.2), and the job columns and Tags a team never fills', () => {
    expect(TEAMS_KIND.listView).toBe('teams_with_status');
    expect([...hiddenColumns(TEAMS_KIND)]).toEqual(['schedule', 'namespace', 'job_status', 'last_runtime', 'job_last_failed', 'tags']);
  });

  it('gives teams the Manage Team tab first', () => {
    expect(TEAMS_KIND.tabs).toEqual(['manageTeam', 'spec']);
  });

  it('never sends a team the namespace and labels its table lacks', () => {
    const input = { name: 'Storage', namespace: 'default', labels: {}, spec: {} };
    expect(updateBody(TEAMS_KIND, input, 'person-1')).toEqual({ name: 'Storage', spec: {}, created_by: 'person-1' });
  });
});
