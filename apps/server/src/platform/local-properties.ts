import { existsSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { PRIVATE_FILE_MODE, restrictMode } from './private-files';

export interface LocalProperty {
  name: string;
  value: string;
}

/** Parses a Java-style properties file: `name=value` lines, `#` and `!` comments, blank lines ignored. */
export function parseProperties(text: string): LocalProperty[] {
  const properties: LocalProperty[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const separator = line.search(/[=:]/);
    if (separator <= 0) continue;
    const name = line.slice(0, separator).trim();
    const value = line.slice(separator + 1).trim();
    if (name !== '') properties.push({ name, value });
  }
  return properties;
}

/**
 * Mirrors the properties file into the properties table with source 'local' so the Feature Flags screen lists them;
 * local rows no longer in the file are removed. A trigger keeps everybody else from editing them.
 */
export async function loadLocalProperties(pool: pg.Pool, file: string): Promise<number> {
  // Whoever can write the file switches features on and off for everybody, past the read-only UI.
  restrictMode(file, PRIVATE_FILE_MODE);
  const properties = existsSync(file) ? parseProperties(readFileSync(file, 'utf8')) : [];
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select set_config('opsdeck.loading_local_properties', 'on', true)`);
    await client.query(`delete from properties where source = 'local' and not (name = any($1::text[]))`, [properties.map((p) => p.name)]);
    for (const property of properties) {
      await client.query(
        `insert into properties (name, value, source) values ($1, $2, 'local')
         on conflict (name) do update set value = excluded.value, source = 'local', description = null`,
        [property.name, property.value],
      );
    }
    await client.query('commit');
    return properties.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
