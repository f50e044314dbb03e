import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DB_TYPES_FILE, generateDatabaseTypes, TEXT_LIMITS_FILE } from '../../../scripts/gen-db-types';

describe('packages/shared/src/database.generated.ts', () => {
  // Migrating a fresh embedded database takes a few seconds, more on a busy machine.
  it('matches the schema the migrations build, as docs/text-limits.md does (regenerate both with npm run db:types)', { timeout: 180_000 }, async () => {
    const generated = await generateDatabaseTypes();
    expect(readFileSync(DB_TYPES_FILE, 'utf8'), 'database.generated.ts is stale: run `npm run db:types` and commit the file').toBe(generated.types);
    expect(readFileSync(TEXT_LIMITS_FILE, 'utf8'), 'docs/text-limits.md is stale: run `npm run db:types` and commit the file').toBe(generated.textLimits);
  });
});
