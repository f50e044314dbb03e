import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHECK_FIELD_RULES, CHECK_TYPES, type CheckType } from '@opsdeck/shared';
import { describe, expect, it } from 'vitest';

/** The checker modules that run each type: where a field the catalogue says runs must be read. */
const CHECKER_OF: Readonly<Record<CheckType, string | readonly string[]>> = {
  http: 'network-checkers.ts',
  tcp: 'network-checkers.ts',
  dns: 'network-checkers.ts',
  icmp: 'network-checkers.ts',
  exec: ['exec-checker.ts', '../exec-connections.ts'],
  postgres: 'database-checkers.ts',
  mysql: 'database-checkers.ts',
  redis: 'database-checkers.ts',
  mongodb: 'database-checkers.ts',
  folder: 'folder-checker.ts',
  prometheus: 'prometheus-checker.ts',
  catalog: 'catalog-checker.ts',
  elasticsearch: 'search-checkers.ts',
  opensearch: 'search-checkers.ts',
  alertmanager: 'search-checkers.ts',
  kubernetes: 'kubernetes-checker.ts',
};

/** The steps every check goes through: the run (timeout, threshold), the expressions, and the save (name). */
const SHARED_STEPS = ['run-check.ts', '../check-expressions.ts', '../check-scheduler.ts', '../canary-spec.ts'];

const source = (file: string): string => readFileSync(path.join(import.meta.dirname, file), 'utf8');

describe('the fields the catalogue says run', () => {
  it.each(CHECK_TYPES)('are each read by the %s checker or a step every check goes through', (type) => {
    const text = [CHECKER_OF[type], SHARED_STEPS].flat().map(source).join('\n');
    const unread = Object.entries(CHECK_FIELD_RULES[type])
      .filter(([, rule]) => rule.verdict === 'runs')
      .map(([field]) => field)
      .filter((field) => {
        const key = field.split(/[.[\]]+/).filter((part) => part !== '').at(-1) ?? field;
        return !new RegExp(`(\\.|\\?\\.|\\b)${key}\\b`).test(text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''));
      });
    expect(unread).toEqual([]);
  });
});
