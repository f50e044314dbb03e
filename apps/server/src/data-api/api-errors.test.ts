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

  it('maps a unique violation to 409 and a statement timeout to 500', () => {
    expect(fromDatabaseError({ code: '23505', message: 'duplicate key value violates unique constraint "x_key"' })).toMatchObject({ statusCode: 409 });
    expect(fromDatabaseError({ code: '57014', message: 'canceling statement due to statement timeout' })).toMatchObject({
      statusCode: 500,
      message: 'canceling statement due to statement timeout',
    });
  });

  it('leaves anything that is not a database error to the caller', () => {
    expect(fromDatabaseError(new Error('boom'))).toBeNull();
  });
});
