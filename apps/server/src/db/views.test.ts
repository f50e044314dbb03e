import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrationFiles, viewScripts } from './migrate';

const MIGRATIONS = new URL('./migrations/', import.meta.url);

/** The names of the views and functions a migration creates, with or without `or replace`. */
function definedBy(sql: string): Set<string> {
  const pattern = /^\s*create\s+(?:or\s+replace\s+)?(?:view|function)\s+([a-z_][a-z0-9_]*)/gim;
  return new Set([...sql.matchAll(pattern)].map((match) => (match[1] ?? '').toLowerCase()));
}

const scripts = viewScripts();
const migrations = migrationFiles().map((file) => ({ file, sql: readFileSync(new URL(file, MIGRATIONS), 'utf8') }));

describe('views/', () => {
  // Grants and comments may follow a definition (a rebuild drops the views, so they belong with it); anything that
  // changes tables or data is a migration's.
  it('has files, each creating at least one view or function and changing nothing else', () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.views.length + script.functions.length, script.file).toBeGreaterThan(0);
      const statements = [...script.sql.matchAll(/^(create|drop|alter|insert|update|delete|truncate|do)\b.*$/gim)]
        .map((match) => match[0])
        .filter((line) => !/^create view [a-z_]/.test(line) && !/^create or replace function [a-z_]/.test(line));
      expect(statements, script.file).toEqual([]);
    }
  });

  it('defines each view and function in exactly one file', () => {
    const names = scripts.flatMap((script) => [...script.views, ...script.functions]);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('names in each file the migrations that defined its objects before, and no other migration defines them', () => {
    for (const script of scripts) {
      const header = /^-- History: ((?:\d{4} ?)+)$/m.exec(script.sql);
      expect(header, `${script.file} needs a "-- History: NNNN …" line`).not.toBeNull();
      const history = (header?.[1] ?? '').trim().split(' ');
      const owned = [...script.views, ...script.functions];
      const defining = migrations
        .filter((migration) => owned.some((name) => definedBy(migration.sql).has(name)))
        .map((migration) => migration.file.slice(0, 4));
      expect(defining, `${script.file}: a change to ${owned.join(', ')} belongs in this file, not a migration`).toEqual(history);
    }
  });

  it('is named at the top of every migration whose definitions it supersedes', () => {
    for (const script of scripts) {
      const owned = [...script.views, ...script.functions];
      for (const migration of migrations) {
        if (!owned.some((name) => definedBy(migration.sql).has(name))) continue;
        const header = migration.sql.split('\n').filter((line) => line.startsWith('--')).slice(0, 6).join('\n');
        expect(header, `${migration.file} should point at views/${script.file}`).toContain(`views/${script.file}`);
      }
    }
  });
});
