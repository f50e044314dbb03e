import { describe, expect, it } from 'vitest';
import { logBackendSpecJsonSchema, topologySpecJsonSchema } from '@opsdeck/shared';
import { schemaCheck } from '@/components/code-editor/text-diagnostics';
import { updateBody } from '@/lib/settings-resources/api/update-resource';
import { hiddenColumns } from '@/lib/settings-resources/settings-resource-kind';
import { LOG_BACKEND_EXAMPLE_SPEC, LOGGING_BACKENDS_KIND, TOPOLOGIES_KIND, TOPOLOGY_EXAMPLE_SPEC } from './integration-kinds';
import { logBackendSpecProblems } from './log-backend-spec';

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

  it('reports a spec the schema refuses, such as an http lookup without display', () => {
    const refused = { components: [{ name: 'web', lookup: { http: [{ url: 'https://example.com' }] } }] };
    expect(schemaCheck(topologySpecJsonSchema)(refused)).not.toEqual([]);
  });
});

describe('Log Backends settings kind', () => {
  it('starts a new log backend from a file example both the JSON Schema and the spec rules accept', () => {
    expect(schemaCheck(logBackendSpecJsonSchema())(LOG_BACKEND_EXAMPLE_SPEC)).toEqual([]);
    expect(logBackendSpecProblems(LOG_BACKEND_EXAMPLE_SPEC)).toEqual([]);
    expect(LOG_BACKEND_EXAMPLE_SPEC).toMatchObject({ file: { paths: ['app/*.log'] }, routes: [expect.any(Object)] });
  });

  it('reads logging_backends_with_status, hides Schedule and Namespace, and has no Namespace field', () => {
    expect(LOGGING_BACKENDS_KIND.listView).toBe('logging_backends_with_status');
    expect([...hiddenColumns(LOGGING_BACKENDS_KIND)]).toEqual(['schedule', 'namespace']);
    expect(LOGGING_BACKENDS_KIND.hasNamespace).toBe(false);
    expect(LOGGING_BACKENDS_KIND.tabs).toEqual(['spec', 'jobHistory']);
  });

  it('leaves created_by, created_at and updated_at out of an update, which other kinds send created_by with', () => {
    const input = { name: 'files', namespace: 'default', labels: {}, spec: LOG_BACKEND_EXAMPLE_SPEC };
    expect(updateBody(LOGGING_BACKENDS_KIND, input, 'person-1')).toEqual(input);
    expect(updateBody(TOPOLOGIES_KIND, input, 'person-1')).toEqual({ ...input, created_by: 'person-1' });
  });
});
