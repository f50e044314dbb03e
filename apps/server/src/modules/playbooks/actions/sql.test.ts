import { describe, expect, it } from 'vitest';
import { sqlDriver } from './sql';

describe('the driver of an sql action', () => {
  it("follows the connection's type unless the action names one", () => {
    expect(sqlDriver({}, 'postgres')).toBe('postgres');
    expect(sqlDriver({}, 'mysql')).toBe('mysql');
    expect(sqlDriver({}, 'MariaDB')).toBe('mysql');
    expect(sqlDriver({ driver: 'mysql' }, 'postgres')).toBe('mysql');
  });

  it('has none for a connection that is not a postgres or mysql database', () => {
    expect(sqlDriver({}, 'sql_server')).toBeNull();
    expect(sqlDriver({}, 'slack')).toBeNull();
  });
});
