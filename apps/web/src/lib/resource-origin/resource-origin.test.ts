import { describe, expect, it } from 'vitest';
import { isUiSource, owningTopologyId } from './resource-origin';

describe('isUiSource', () => {
  it('treats a missing, blank or UI source as made in the UI', () => {
    for (const source of [null, undefined, '', 'UI']) expect(isUiSource(source)).toBe(true);
  });

  it('treats any other source as owning the resource', () => {
    for (const source of ['KubernetesCRD', 'ConfigFile', 'agent']) expect(isUiSource(source)).toBe(false);
  });
});

describe('owningTopologyId', () => {
  it('reads the topology of a canary kept for an inline check, and nothing from any other source', () => {
    expect(owningTopologyId('topology:0b0e7b2c-3f5a-4d21-9a51-7c1d2e3f4a5b/spec.components[0].checks[0]')).toBe('0b0e7b2c-3f5a-4d21-9a51-7c1d2e3f4a5b');
    for (const source of [null, undefined, 'UI', 'apply', 'gitops:/srv', 'topology:not-an-id/x']) expect(owningTopologyId(source)).toBeNull();
  });
});
