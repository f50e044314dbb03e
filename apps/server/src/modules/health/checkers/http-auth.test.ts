import { describe, expect, it } from 'vitest';
import { accessTokenOf, awsSigV4Headers, digestAuthorization, digestProblem, parseDigestChallenge, tokenRequestBody } from './http-auth';

describe('Digest access authentication', () => {
  // RFC 7616 §3.9.1: the same request answered with MD5 and with SHA-256.
  const header = (algorithm: string): string =>
    `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`;
  const request = { username: 'Mufasa', password: 'Circle of Life', method: 'GET', uri: '/dir/index.html' };
  const cnonce = 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ';

  it.each([
    ['MD5', '8ca523f5e9506fed4657c9700eebdbec'],
    ['SHA-256', '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1'],
  ])('answers the RFC 7616 example challenge with %s as the RFC does', (algorithm, response) => {
    const challenge = parseDigestChallenge(['Basic realm="x"', header(algorithm)]);
    if (challenge === null) throw new Error('the challenge should parse');
    expect(challenge).toMatchObject({ realm: 'http-auth@example.org', qop: 'auth', algorithm });
    const authorization = digestAuthorization(challenge, request, cnonce);
    expect(authorization).toContain(`response="${response}"`);
    expect(authorization).toContain('qop=auth, nc=00000001');
    expect(authorization).toContain('opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"');
  });

  it('finds no Digest challenge in a Basic-only answer, and names an algorithm it cannot answer', () => {
    expect(parseDigestChallenge('Basic realm="x"')).toBeNull();
    expect(parseDigestChallenge(undefined)).toBeNull();
    const challenge = parseDigestChallenge('Digest realm="r", nonce="n", algorithm=SHA-512-256');
    expect(challenge === null ? null : digestProblem(challenge)).toBe('the server asks for Digest algorithm SHA-512-256, which is not run here (MD5, SHA-256 and their -sess forms are)');
  });

  it('answers a challenge without qop the RFC 2069 way', () => {
    const challenge = parseDigestChallenge('Digest realm="r", nonce="n"');
    if (challenge === null) throw new Error('the challenge should parse');
    expect(digestAuthorization(challenge, { username: 'u', password: 'p', method: 'GET', uri: '/' })).not.toContain('qop=');
  });
});

describe('AWS Signature Version 4', () => {
  const secretKey = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
  const at = new Date('2015-08-30T12:36:00Z');

  it("signs AWS's IAM ListUsers example to the signature AWS publishes", () => {
    const headers = awsSigV4Headers(
      { method: 'GET', url: 'https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: '' },
      { accessKey: 'AKIDEXAMPLE', secretKey, region: 'us-east-1', service: 'iam' },
      at,
    );
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    );
  });

  it("signs the test suite's get-vanilla request as the suite does", () => {
    const headers = awsSigV4Headers({ method: 'GET', url: 'https://example.amazonaws.com/', headers: {}, body: '' }, { accessKey: 'AKIDEXAMPLE', secretKey, region: 'us-east-1', service: 'service' }, at);
    expect(headers.authorization).toContain('Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('sends and signs a session token, and the payload hash for S3', () => {
    const headers = awsSigV4Headers({ method: 'PUT', url: 'https://b.s3.amazonaws.com/k', headers: {}, body: 'x' }, { accessKey: 'A', secretKey, sessionToken: 'tok', region: 'eu-west-1', service: 's3' }, at);
    expect(headers['x-amz-security-token']).toBe('tok');
    expect(headers['x-amz-content-sha256']).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
    expect(headers.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token');
  });
});

describe('OAuth 2 client credentials', () => {
  it('asks for the client-credentials grant with the scopes space-separated and the extra fields', () => {
    expect(tokenRequestBody(['read', 'write'], { audience: 'api' })).toBe('grant_type=client_credentials&scope=read+write&audience=api');
    expect(tokenRequestBody(undefined, undefined)).toBe('grant_type=client_credentials');
  });

  it('takes the access token of a 2xx JSON answer and says why there is none otherwise, without repeating the answer', () => {
    expect(accessTokenOf(200, '{"access_token":"abc","token_type":"bearer"}')).toEqual({ token: 'abc' });
    expect(accessTokenOf(401, '{"error":"invalid_client","error_description":"secret s3cr3t is wrong"}')).toEqual({ error: 'the token endpoint answered 401 without an access token: invalid_client' });
    expect(accessTokenOf(200, '<html>')).toEqual({ error: 'the token endpoint answered 200 without JSON' });
  });
});
