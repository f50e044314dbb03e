import { describe, expect, it } from 'vitest';
import { TOPOLOGY_COMPONENT_FIELDS, TOPOLOGY_LOOKUP_KINDS } from '@opsdeck/shared';
import { renderTopologyCompatibility } from './compatibility-section';

describe('the Topology section of docs/compatibility.md', () => {
  const page = renderTopologyCompatibility();

  it('has a row for every component field and lookup kind the save rules know', () => {
    for (const field of Object.keys(TOPOLOGY_COMPONENT_FIELDS)) expect(page).toContain(`| \`${field}\` |`);
    for (const kind of Object.keys(TOPOLOGY_LOOKUP_KINDS)) expect(page).toContain(`| \`lookup.${kind}\` |`);
  });

  it('says which fields are refused and what to write instead', () => {
    expect(page).toMatch(/\| `healthExpr` \| \*\*refused\*\* \(`OD_TOPOLOGY_FIELD_NOT_RUN`\) \| Components here have a status, not a separate health/);
    expect(page).toMatch(/\| `statusExpr` \| runs \| CEL over summary/);
    expect(page).toMatch(/\| `selectors\[\]\.fieldSelector` \| \*\*refused\*\*/);
    expect(page).toContain("| `lookup.configs` | runs | Mission Control's spelling of catalog");
    expect(page).toMatch(/\| `checks\[\]\.inline` \| runs \| A canary spec/);
  });
});
