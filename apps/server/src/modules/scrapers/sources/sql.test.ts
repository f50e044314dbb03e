import { describe, expect, it } from 'vitest';
import { driverOf, namesOwnDatabaseUrl } from './sql';

describe('sql source targets', () => {
  it('takes the driver from the spec, else from the connection type or URL scheme', () => {
    expect(driverOf(null, 'postgres://h/db')).toBe('postgres');
    expect(driverOf(null, 'postgresql://h/db')).toBe('postgres');
    expect(driverOf(null, 'mysql://h/db')).toBe('mysql');
    expect(driverOf('sql_server', 'sqlserver://h')).toBe('sql_server');
    expect(driverOf('mysql', 'postgres://h/db')).toBe('mysql');
    expect(driverOf(null, 'oracle://h/db')).toBeNull();
  });

  it("recognises the console's own database by host, port and name, and any local target with its name", () => {
    const own = 'postgres://opsdeck@db.internal:5432/opsdeck';
    expect(namesOwnDatabaseUrl(own, 'postgres://other:pw@DB.internal/opsdeck')).toBe(true);
    expect(namesOwnDatabaseUrl(own, 'postgres://u@127.0.0.1:6543/opsdeck')).toBe(true);
    expect(namesOwnDatabaseUrl(own, 'postgres://u@localhost/opsdeck?host=/var/run/postgresql')).toBe(true);
    expect(namesOwnDatabaseUrl(own, 'postgres://u@db.internal:5432/inventory')).toBe(false);
    expect(namesOwnDatabaseUrl(own, 'postgres://u@elsewhere:5432/opsdeck')).toBe(false);
    expect(namesOwnDatabaseUrl(null, 'postgres://u@localhost/opsdeck')).toBe(false);
  });
});
