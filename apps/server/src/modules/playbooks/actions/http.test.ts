import { describe, expect, it } from 'vitest';
import { connectionRequestUrl } from './http';

const ORIGIN_REFUSAL = { error: expect.stringMatching(/must stay on the origin/) };

describe('where an http action through a connection sends its request', () => {
  it("uses the connection's URL when the action gives none", () => {
    expect(connectionRequestUrl('https://api.example.com/v1', undefined)).toEqual({ url: 'https://api.example.com/v1' });
    expect(connectionRequestUrl('https://api.example.com/v1', '  ')).toEqual({ url: 'https://api.example.com/v1' });
  });

  it("puts a relative url under the connection's path, with its own query", () => {
    expect(connectionRequestUrl('https://api.example.com/v1/', '/pods?limit=5')).toEqual({ url: 'https://api.example.com/v1/pods?limit=5' });
    expect(connectionRequestUrl('https://api.example.com/v1?token=a', 'pods')).toEqual({ url: 'https://api.example.com/v1/pods?token=a' });
  });

  it('keeps a protocol-relative path on the connection instead of following it to another host', () => {
    expect(connectionRequestUrl('https://api.example.com', '//evil.example.net/steal')).toEqual({ url: 'https://api.example.com/evil.example.net/steal' });
  });

  it("accepts an absolute URL on the connection's origin and refuses one anywhere else", () => {
    expect(connectionRequestUrl('https://api.example.com/v1', 'https://api.example.com:443/v2/x')).toEqual({ url: 'https://api.example.com:443/v2/x' });
    expect(connectionRequestUrl('https://api.example.com/v1', 'https://evil.example.net/v1')).toEqual(ORIGIN_REFUSAL);
    expect(connectionRequestUrl('https://api.example.com/v1', 'http://api.example.com/v1')).toEqual(ORIGIN_REFUSAL);
    expect(connectionRequestUrl('https://api.example.com/v1', 'https://api.example.com:8443/v1')).toEqual(ORIGIN_REFUSAL);
  });

  it('refuses a relative url when the connection URL cannot be parsed', () => {
    expect(connectionRequestUrl('not a url', 'health')).toEqual({ error: "The connection's URL 'not a url' is not a valid URL" });
  });
});
