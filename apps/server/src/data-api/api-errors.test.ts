import { describe, expect, it } from 'vitest';
import { fromDatabaseError } from './api-errors';

describe('fromDatabaseError', () => {
  it('reports a full-text value that does not parse as the client’s 400, with the database’s words', () => {
    for (const error of [
      { code: '42601', message: 'no operand in tsquery: "*&"', routine: 'gettoken_query_standard' },
      { code: '42601', message: 'there is no escaped character: "\\"', routine: 'gettoken_tsvector' },
    ]) {
      expect(fromDatabaseError(error)).toMatchObject({ statusCode: 400, code: '42601', message: error.message });
    }
  });

  it('hides a syntax error of the statement itself behind a 500 that names no SQL', () => {
    const error = fromDatabaseError({ code: '42601', message: 'syntax error at or near "selec"', position: '1', routine: 'scanner_yyerror' });
    expect(error).toMatchObject({ statusCode: 500, code: 'PGRSTX00', message: 'The query could not be built' });
    expect(JSON.stringify(error)).not.toContain('selec');
  });

  it('maps a unique violation to 409, a statement timeout to 503 with a hint, and an index row too large to 400 without the index', () => {
    expect(fromDatabaseError({ code: '23505', message: 'duplicate key value violates unique constraint "x_key"' })).toMatchObject({ statusCode: 409 });
    expect(fromDatabaseError({ code: '57014', message: 'canceling statement due to statement timeout' })).toMatchObject({
      statusCode: 503,
      message: 'canceling statement due to statement timeout',
      hint: 'Narrow the request (a filter, a smaller limit) or try again',
    });
    const tooLarge = fromDatabaseError({ code: '54000', message: 'index row size 2720 exceeds btree version 4 maximum 2704 for index "incidents_title_idx"' });
    expect(tooLarge).toMatchObject({ statusCode: 400, code: '54000', message: 'A value is too large to be stored in an index' });
    expect(JSON.stringify(tooLarge?.toBody())).not.toContain('incidents_title_idx');
  });

  it('words a unique violation after the table and the key columns the schema cache knows for the index', () => {
    const keyOf = (index: string) =>
      ({ properties_pkey: { table: 'properties', columns: ['name'] }, config_analysis_config_id_analyzer_key: { table: 'config_analysis', columns: ['config_id', 'analyzer'] } })[index] ?? null;
    const flag = fromDatabaseError({ code: '23505', message: 'duplicate key value violates unique constraint "properties_pkey"', detail: 'Key (name)=(beta) already exists.', constraint: 'properties_pkey' }, keyOf);
    expect(flag?.toBody()).toEqual({ code: '23505', message: 'A feature flag named "beta" already exists', details: 'Key (name)=(beta) already exists.', hint: 'Choose another name, or change the existing feature flag' });
    const insight = fromDatabaseError({ code: '23505', message: 'duplicate key', detail: 'Key (config_id, analyzer)=(1, x) already exists.', constraint: 'config_analysis_config_id_analyzer_key' }, keyOf);
    expect(insight?.message).toBe('A config analysis with this config id and analyzer already exists');
  });

  it('falls back to the table and key the error reports when the index is unknown', () => {
    const error = { code: '23505', message: 'duplicate key', detail: 'Key (namespace, name)=(default, x) already exists.', table: 'playbooks', constraint: 'playbooks_namespace_name_key' };
    expect(fromDatabaseError(error)?.message).toBe('A playbook with this namespace and name already exists');
    expect(fromDatabaseError({ ...error, table: 'canaries', detail: 'Key (name)=(web) already exists.' })?.message).toBe('A canary named "web" already exists');
    expect(fromDatabaseError({ ...error, table: 'incidents', detail: 'Key (incident_id)=(INC-1) already exists.' })?.message).toBe('An incident with this incident id already exists');
  });

  it('leaves anything that is not a database error to the caller', () => {
    expect(fromDatabaseError(new Error('boom'))).toBeNull();
  });

  it('drops a failing-row dump from any violation, whatever it holds', () => {
    for (const code of ['23502', '23514', '44000']) {
      const error = fromDatabaseError({ code, message: 'violates a constraint', detail: 'Failing row contains (1, agent, null, 5e884898da28047151d0e56f8dc62927).' });
      expect(error?.details, code).toBeNull();
    }
  });

  it('drops the key of a unique or foreign-key violation when a hidden column is part of it, and keeps it otherwise', () => {
    const secret = fromDatabaseError({ code: '23505', message: 'duplicate key value violates unique constraint "agents_access_token_hash_key"', detail: 'Key (access_token_hash)=(5e884898da) already exists.' });
    expect(secret).toMatchObject({ statusCode: 409, details: null });
    expect(secret?.message).not.toMatch(/access_token|5e884898da/);
    const composite = fromDatabaseError({ code: '23505', message: 'duplicate key', detail: 'Key (name, password_encrypted)=(x, \\x7631) already exists.' });
    expect(composite?.details).toBeNull();
    const visible = fromDatabaseError({ code: '23505', message: 'duplicate key', detail: 'Key (lower(email))=(a@b.c) already exists.' });
    expect(visible?.details).toBe('Key (lower(email))=(a@b.c) already exists.');
    const reference = fromDatabaseError({ code: '23503', message: 'violates foreign key constraint', detail: 'Key (team_id)=(42) is not present in table "teams".' });
    expect(reference?.details).toBe('Key (team_id)=(42) is not present in table "teams".');
  });

  it('does not name a hidden column in the message of a not-null violation', () => {
    const error = fromDatabaseError({ code: '23502', message: 'null value in column "password_encrypted" of relation "connections" violates not-null constraint' });
    expect(error?.message).not.toContain('password_encrypted');
    expect(error).toMatchObject({ statusCode: 400, code: '23502' });
  });

  it('answers the last-administrator guard with 409 OD_LAST_ADMIN', () => {
    expect(fromDatabaseError({ code: 'ODA01', message: 'The last administrator cannot be removed or disabled' })?.toBody()).toMatchObject({
      code: 'OD_LAST_ADMIN',
      message: 'The last administrator cannot be removed or disabled',
    });
    expect(fromDatabaseError({ code: 'ODA01', message: 'x' })?.statusCode).toBe(409);
  });
});
