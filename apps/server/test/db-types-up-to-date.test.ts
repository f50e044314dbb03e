import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DB_TYPES_FILE, generateDatabaseTypes } from '../../../scripts/gen-db-types';

describe('packages/shared/src/database.generated.ts', () => {
  // Migrating a fresh embedded database takes a few seconds, more on a busy machine.
  it('matches the schema the migrations build (regenerate with npm run db:types)', { timeout: 180_000 }, async () => {
    const generated = await generateDatabaseTypes();
    const committed = readFileSync(DB_TYPES_FILE, 'utf8');
    expect(committed, 'database.generated.ts is stale: run `npm run db:types` and commit the file').toBe(generated);
  });
});
