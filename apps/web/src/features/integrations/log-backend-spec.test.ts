import { describe, expect, it } from 'vitest';
import { logBackendSpecProblems } from './log-backend-spec';

describe('logBackendSpecProblems', () => {
  it('accepts a spec with one backend', () => {
    expect(logBackendSpecProblems({ loki: { url: 'http://loki:3100' } })).toEqual([]);
  });

  it('says a spec needs exactly one backend, which the JSON Schema cannot say', () => {
    expect(logBackendSpecProblems({})).toEqual(['Give exactly one of file, loki, opensearch, elasticsearch, kubernetes']);
    expect(logBackendSpecProblems({ file: { paths: ['/var/lib/opsdeck/logs/a.log'] }, loki: { url: 'http://loki:3100' } })).toHaveLength(1);
  });

  it('names the field at fault', () => {
    expect(logBackendSpecProblems({ file: { paths: [] } })).toEqual([expect.stringMatching(/^file\.paths: /)]);
  });
});
