import { describe, expect, it } from 'vitest';
import { mysqlDsnAsUrl, namesCredentials, placeCredentials, placeholderProblem } from './credential-placeholders';

describe('credential placeholders', () => {
  it('accepts them in the user part of the database URLs a driver takes whole', () => {
    for (const url of ['postgres://$(username):$(password)@db/app', 'MYSQL://$(username)@db/app', 'rediss://:$(password)@cache:6380', 'mongodb+srv://$(username):$(password)@cluster/x']) {
      expect(placeholderProblem(url), url).toBeNull();
      expect(namesCredentials(url), url).toBe(true);
    }
    expect(placeholderProblem('https://example.com/health')).toBeNull();
  });

  it('refuses them in an http(s) URL, which never sends credentials from its URL, and outside the user part', () => {
    for (const url of ['https://$(username):$(password)@api.example.com/', 'postgres://db/app?user=$(username)', 'postgres://$(password).attacker.invalid/app', 'http://host/$(password)']) {
      expect(placeholderProblem(url), url).toMatch(/only in the user part of a postgres, mysql, redis or mongodb URL/);
      expect(() => placeCredentials(url, 'u', 'p'), url).toThrow(/only in the user part/);
    }
  });

  it('fills them URL-encoded, so a password cannot change the host', () => {
    expect(placeCredentials('postgres://$(username):$(password)@db:5432/app', 'a b', 'x@evil.invalid/')).toBe('postgres://a%20b:x%40evil.invalid%2F@db:5432/app');
    expect(placeCredentials('postgres://db:5432/app', 'a', 'b')).toBeNull();
  });

  it("reads Go's mysql DSN, as canary-checker's mysql fixtures write it, as the mysql:// URL it names", () => {
    expect(mysqlDsnAsUrl('$(username):$(password)@tcp(mysql.canaries.svc:3306)/mysqldb')).toBe('mysql://$(username):$(password)@mysql.canaries.svc:3306/mysqldb');
    expect(mysqlDsnAsUrl('mysql://root@tcp(127.0.0.1:3306)/app?parseTime=true')).toBe('mysql://root@127.0.0.1:3306/app?parseTime=true');
    expect(mysqlDsnAsUrl('tcp(db:3306)/')).toBe('mysql://db:3306/');
    for (const text of ['mysql://root@db:3306/app', 'user=$(username) dbname=x', 'https://tcp(x)/y']) expect(mysqlDsnAsUrl(text), text).toBeNull();
    expect(placeholderProblem('$(username):$(password)@tcp(db:3306)/app')).toBeNull();
    expect(placeCredentials('$(username):$(password)@tcp(db:3306)/app', 'mysqladmin', 'p@ss')).toBe('mysql://mysqladmin:p%40ss@db:3306/app');
  });
});
