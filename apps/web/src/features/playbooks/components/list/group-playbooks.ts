import { PLAYBOOK_OTHER_CATEGORY } from '@opsdeck/shared';

export interface PlaybookGroup<T> {
  category: string;
  playbooks: T[];
}

/**
 * Playbooks by category (spec 001 §2.5): categories in alphabetical order, a missing or blank one counted as 'Other',
 * which comes last; within a group the given order is kept.
 */
export function groupPlaybooks<T extends { category: string | null }>(playbooks: readonly T[]): PlaybookGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const playbook of playbooks) {
    const category = playbook.category?.trim() || PLAYBOOK_OTHER_CATEGORY;
    const group = groups.get(category);
    if (group === undefined) groups.set(category, [playbook]);
    else group.push(playbook);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => {
      if (a === PLAYBOOK_OTHER_CATEGORY) return 1;
      if (b === PLAYBOOK_OTHER_CATEGORY) return -1;
      return a.localeCompare(b);
    })
    .map(([category, members]) => ({ category, playbooks: members }));
}
