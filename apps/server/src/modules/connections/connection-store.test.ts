import { describe, expect, it } from 'vitest';
import { splitUrlCredentials, urlWithCredentials } from './connection-store';

describe('urlWithCredentials', () => {
  it('fills $(username) and $(password) in the user part, URL-encoded, as Mission Control connection strings write them', () => {
    const url = urlWithCredentials({ url: 'postgres://$(username):$(password)@db.internal:5432/app?sslmode=disable', username: 'monitor', password: 'p@ss/w:rd' });
    expect(url).toBe('postgres://monitor:p%40ss%2Fw%3Ard@db.internal:5432/app?sslmode=disable');
    expect(new URL(url).hostname).toBe('db.internal');
  });

  it('fills a missing credential with nothing rather than sending the placeholder', () => {
    expect(urlWithCredentials({ url: 'mongodb://$(username):$(password)@mongo:27017/admin', username: 'reader', password: null })).toBe('mongodb://reader:@mongo:27017/admin');
  });

  it('refuses a placeholder outside the user part, so a credential never lands in a host, path or query', () => {
    for (const url of ['postgres://$(password).attacker.invalid:5432/app', 'postgres://u@db:5432/app?application_name=$(password)', 'postgres://db/$(username)']) {
      expect(() => urlWithCredentials({ url, username: 'monitor', password: 'secret' }), url).toThrow(/only in the user part/);
    }
  });

  it('still puts separate credentials into a URL without any, and leaves a URL that has its own alone', () => {
    expect(urlWithCredentials({ url: 'mysql://db:3306/app', username: 'app', password: 'x y' })).toBe('mysql://app:x%20y@db:3306/app');
    expect(urlWithCredentials({ url: 'mysql://own:pw@db:3306/app', username: 'app', password: 'other' })).toBe('mysql://own:pw@db:3306/app');
  });
});

describe('splitUrlCredentials', () => {
  it('keeps $(username):$(password) in a saved URL instead of taking the placeholder for a typed password', () => {
    const input = { url: 'postgres://$(username):$(password)@db:5432/app', username: 'monitor', password: 'secret' };
    expect(splitUrlCredentials(input)).toEqual(input);
  });

  it('refuses placeholders that would not be filled in, with a coded 400', () => {
    expect(() => splitUrlCredentials({ url: 'https://$(username):$(password)@api.example.com/' })).toThrow(expect.objectContaining({ statusCode: 400, code: 'OD_URL_PLACEHOLDER' }));
    expect(() => splitUrlCredentials({ url: 'https://api.example.com/?token=$(password)' })).toThrow(expect.objectContaining({ code: 'OD_URL_PLACEHOLDER' }));
  });

  it('moves a typed password out of the URL', () => {
    expect(splitUrlCredentials({ url: 'postgres://app:typed@db:5432/app' })).toEqual({ url: 'postgres://db:5432/app', username: 'app', password: 'typed' });
  });
});
