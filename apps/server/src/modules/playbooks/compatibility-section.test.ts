import { describe, expect, it } from 'vitest';
import { PLAYBOOK_SPEC_SCHEMA } from '@opsdeck/shared';
import { PLAYBOOK_SCHEMA_BLOCKS, renderPlaybookCompatibility, schemaProperties } from './compatibility-section';
import { PLAYBOOK_FIELD_BLOCKS } from './spec';

/** The fields of an editor-schema block it marks refused (`not: {}`), and the others. */
function schemaVerdicts(path: readonly string[]): { runs: string[]; refused: string[] } {
  let node: unknown = PLAYBOOK_SPEC_SCHEMA;
  for (const key of [...path, 'properties']) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  const entries = Object.entries((node ?? {}) as Record<string, Record<string, unknown>>);
  return {
    runs: entries.filter(([, value]) => !('not' in value)).map(([key]) => key).sort(),
    refused: entries.filter(([, value]) => 'not' in value).map(([key]) => key).sort(),
  };
}

describe('the Playbook section of the compatibility page', () => {
  it.each(PLAYBOOK_SCHEMA_BLOCKS)("keeps the editor schema's $block fields equal to what the save takes and refuses", ({ block, path }) => {
    const save = PLAYBOOK_FIELD_BLOCKS[block];
    expect(schemaVerdicts(path)).toEqual({ runs: [...save.runs].sort(), refused: Object.keys(save.refused).sort() });
  });

  it('describes every field that runs, and says what to do instead of every refused one', () => {
    for (const { block, path } of PLAYBOOK_SCHEMA_BLOCKS) {
      const described = schemaProperties(path);
      for (const field of PLAYBOOK_FIELD_BLOCKS[block].runs) expect(described[field], `${block}.${field}`).not.toBe('');
      for (const [field, note] of Object.entries(PLAYBOOK_FIELD_BLOCKS[block].refused)) expect(note, `${block}.${field}`).not.toBe('');
    }
  });

  it('lists awsSigV4 as run and its inline keys as refused, with the reason', () => {
    const page = renderPlaybookCompatibility();
    expect(page).toContain('| `http.awsSigV4` | runs |');
    expect(page).toMatch(/\| `http\.awsSigV4\.secretKey` \| \*\*refused\*\* \(`OD_PLAYBOOK_SPEC`\) \| Keys are not written into a playbook/);
    expect(page).toMatch(/\| `spec\.on\.config` \| \*\*refused\*\*/);
  });
});
