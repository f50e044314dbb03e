import { describe, expect, it } from 'vitest';
import { NO_AGENT_ID } from '@/lib/resource-origin/resource-origin';
import { integrationOrigin, isLinkedOrigin } from './integration-source';

const AGENT_ID = '77777777-7777-4777-8777-777777777777';

describe('integrationOrigin', () => {
  it('treats a UI, blank or missing source without an agent as editable', () => {
    for (const source of ['UI', '', null, undefined]) {
      expect(isLinkedOrigin(integrationOrigin({ source, agent_id: null }))).toBe(false);
    }
    expect(integrationOrigin({ source: 'UI', agent_id: NO_AGENT_ID })).toEqual({ kind: 'ui' });
  });

  it('links a resource an agent pushed to that agent, even with a UI source', () => {
    expect(integrationOrigin({ source: 'UI', agent_id: AGENT_ID, agent: { id: AGENT_ID, name: 'eu-cluster' } })).toEqual({
      kind: 'agent',
      label: 'Agent eu-cluster',
      href: `/settings/agents?id=${AGENT_ID}`,
    });
  });

  it('links a component source to the component, and names kubernetes and config file sources', () => {
    expect(integrationOrigin({ source: 'component:abc' })).toEqual({ kind: 'component', label: 'Component', href: '/topology/abc' });
    expect(integrationOrigin({ source: 'KubernetesCRD' })).toEqual({ kind: 'kubernetes', label: 'Kubernetes (KubernetesCRD)' });
    expect(integrationOrigin({ source: 'ConfigFile' })).toEqual({ kind: 'config-file', label: 'Config file' });
    expect(integrationOrigin({ source: 'terraform' })).toEqual({ kind: 'other', label: 'terraform' });
  });
});
