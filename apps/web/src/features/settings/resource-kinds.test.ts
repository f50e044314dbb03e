import { describe, expect, it } from 'vitest';
import { topologySpecJsonSchema } from '@opsdeck/shared';
import { schemaCheck } from '@/components/code-editor/text-diagnostics';
import { hiddenColumns, TOPOLOGIES_KIND, TOPOLOGY_EXAMPLE_SPEC } from './resource-kinds';

describe('Topologies settings kind', () => {
  it('starts a new topology from an example the topology schema accepts', () => {
    expect(schemaCheck(topologySpecJsonSchema)(TOPOLOGY_EXAMPLE_SPEC)).toEqual([]);
  });

  it('gives the example a static child and a catalog lookup', () => {
    expect(TOPOLOGY_EXAMPLE_SPEC.components).toEqual([
      expect.objectContaining({ name: 'Web' }),
      expect.objectContaining({ lookup: { catalog: [{ types: ['Kubernetes::Pod'] }] } }),
    ]);
  });

  it('hides only the Schedule column and reads the status view', () => {
    expect([...hiddenColumns(TOPOLOGIES_KIND)]).toEqual(['schedule']);
    expect(TOPOLOGIES_KIND.listView).toBe('topologies_with_status');
  });

  it('reports a spec the schema refuses, such as an inline check', () => {
    const refused = { components: [{ name: 'web', checks: [{ inline: {} }] }] };
    expect(schemaCheck(topologySpecJsonSchema)(refused)).not.toEqual([]);
  });
});
