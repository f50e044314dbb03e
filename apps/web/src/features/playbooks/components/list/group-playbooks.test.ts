import { describe, expect, it } from 'vitest';
import { groupPlaybooks } from './group-playbooks';

describe('groupPlaybooks', () => {
  it('groups by category in alphabetical order with Other, for a missing or blank category, last', () => {
    const groups = groupPlaybooks([
      { name: 'a', category: 'Kubernetes' },
      { name: 'b', category: null },
      { name: 'c', category: 'Databases' },
      { name: 'd', category: '  ' },
      { name: 'e', category: 'Kubernetes' },
      { name: 'f', category: 'Zeta' },
    ]);
    expect(groups.map((group) => [group.category, group.playbooks.map((playbook) => playbook.name)])).toEqual([
      ['Databases', ['c']],
      ['Kubernetes', ['a', 'e']],
      ['Zeta', ['f']],
      ['Other', ['b', 'd']],
    ]);
  });

  it('puts a category literally named Other together with the uncategorised ones', () => {
    expect(groupPlaybooks([{ category: 'Other' }, { category: null }])).toEqual([{ category: 'Other', playbooks: [{ category: 'Other' }, { category: null }] }]);
  });

  it('answers no groups for no playbooks', () => {
    expect(groupPlaybooks([])).toEqual([]);
  });
});
