import { describe, expect, it } from 'vitest';
import { selectorTypes } from './search-playbook-resources';

describe('selectorTypes', () => {
  it('lists the exact types every selector names, once and sorted', () => {
    expect(selectorTypes([{ types: ['Kubernetes::Pod'] }, { types: ['Kubernetes::Deployment', 'Kubernetes::Pod'] }])).toEqual(['Kubernetes::Deployment', 'Kubernetes::Pod']);
  });

  it('filters nothing when a selector names no type, a glob or an exclusion, which the server judges instead', () => {
    expect(selectorTypes(undefined)).toBeNull();
    expect(selectorTypes([{ types: ['Kubernetes::Pod'] }, { name: 'api' }])).toBeNull();
    expect(selectorTypes([{ types: ['Kubernetes::*'] }])).toBeNull();
    expect(selectorTypes([{ types: ['!Kubernetes::Node'] }])).toBeNull();
  });
});
