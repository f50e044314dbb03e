import http from 'node:http';
import https from 'node:https';
import { awsSigV4Headers } from './http-auth';
import { GLOB_CHARS, segmentPattern } from './folder-checker-glob';

/**
 * The objects under an `s3://bucket/prefix` path, as canary-checker's folder check reads a bucket: ListObjectsV2,
 * signed with Signature Version 4 when keys are given (the secret key only signs; it never leaves this server) and
 * anonymous otherwise (a public bucket). Glob segments after the fixed prefix (`**`, `*`, `?`, `[…]`) are matched
 * against the keys here, since S3 itself only filters by prefix.
 */

export interface S3Credentials {
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
}

export interface S3Access {
  /** scheme://host[:port] of the S3 API: the AWS regional endpoint, or a compatible server's (MinIO…). */
  endpoint: string;
  region: string;
  /** `endpoint/bucket/…` rather than `bucket.endpoint/…`: what S3-compatible servers usually want. */
  pathStyle: boolean;
  credentials: S3Credentials | null;
  insecure: boolean;
}

export interface S3Object {
  /** The key below the fixed prefix of the path. */
  name: string;
  size: number;
  modified: Date;
}

export interface S3Listing {
  objects: S3Object[];
  truncated: boolean;
}

/** The longest answer read for one page: a thousand keys are well under it. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

export class S3ListingError extends Error {}

/** AWS's S3 endpoint of a region. */
export function s3Endpoint(region: string): string {
  return `https://s3.${region}.amazonaws.com`;
}

/** `s3://bucket/a/b/**\/*.txt` as the bucket, the fixed key prefix to list, and the glob segments below it. */
export function parseS3Path(path: string): { bucket: string; prefix: string; segments: string[] } | null {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(path.trim());
  if (match === null || match[1] === undefined) return null;
  const parts = (match[2] ?? '').split('/').filter((part, index, all) => part !== '' || index === all.length - 1);
  const first = parts.findIndex((part) => GLOB_CHARS.test(part));
  if (first === -1) {
    const prefix = parts.join('/');
    return { bucket: match[1], prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`, segments: [] };
  }
  const fixed = parts.slice(0, first).join('/');
  return { bucket: match[1], prefix: fixed === '' ? '' : `${fixed}/`, segments: parts.slice(first) };
}

/** Whether the key's segments below the prefix match the glob segments; `**` stands for any number of them. */
export function keyMatches(segments: readonly string[], parts: readonly string[]): boolean {
  if (segments.length === 0) return parts.length === 0;
  const [head, ...rest] = segments;
  if (head === '**') return keyMatches(rest, parts) || (parts.length > 0 && keyMatches(segments, parts.slice(1)));
  return parts.length > 0 && segmentPattern(head ?? '').test(parts[0] ?? '') && keyMatches(rest, parts.slice(1));
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity.toLowerCase()] ?? '';
  });
}

/** The text of every `<tag>…</tag>` in `xml` (S3's answers are flat and carry no attributes on these elements). */
function elements(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => match[1] ?? '');
}

function first(xml: string, tag: string): string | undefined {
  const found = elements(xml, tag)[0];
  return found === undefined ? undefined : decode(found);
}

function get(url: URL, headers: Record<string, string>, insecure: boolean, signal: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'http:' ? http : https;
    const request = client.request(url, { method: 'GET', headers, signal, ...(url.protocol === 'https:' && insecure ? { rejectUnauthorized: false } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_PAGE_BYTES) {
          request.destroy(new S3ListingError(`an answer of ${url.host} was larger than ${MAX_PAGE_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', (error) => reject(signal.aborted ? new S3ListingError('the check timed out before S3 answered') : error));
    request.end();
  });
}

function bucketUrl(access: S3Access, bucket: string): URL {
  const base = new URL(access.endpoint);
  if (access.pathStyle) return new URL(`${base.origin}/${encodeURIComponent(bucket)}`);
  return new URL(`${base.protocol}//${bucket}.${base.host}/`);
}

/** Lists the keys under the path's prefix page by page, keeping those its glob matches, up to `max` objects. */
export async function listS3(access: S3Access, path: string, max: number, signal: AbortSignal): Promise<S3Listing> {
  const location = parseS3Path(path);
  if (location === null) throw new S3ListingError(`${path} is not an s3://bucket/prefix path`);
  const objects: S3Object[] = [];
  let token: string | undefined;
  let read = 0;
  do {
    const url = bucketUrl(access, location.bucket);
    url.searchParams.set('list-type', '2');
    if (location.prefix !== '') url.searchParams.set('prefix', location.prefix);
    if (token !== undefined) url.searchParams.set('continuation-token', token);
    const headers: Record<string, string> =
      access.credentials === null
        ? {}
        : awsSigV4Headers({ method: 'GET', url: url.toString(), headers: {}, body: '' }, { ...access.credentials, region: access.region, service: 's3' });
    let answer: { status: number; body: string };
    try {
      answer = await get(url, headers, access.insecure, signal);
    } catch (error) {
      if (error instanceof S3ListingError) throw error;
      throw new S3ListingError(`cannot reach ${url.host}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (answer.status !== 200) {
      const code = first(answer.body, 'Code');
      const message = first(answer.body, 'Message');
      throw new S3ListingError(`listing s3://${location.bucket}/${location.prefix} failed: HTTP ${answer.status}${code === undefined ? '' : ` ${code}`}${message === undefined ? '' : `: ${message}`}`);
    }
    for (const entry of elements(answer.body, 'Contents')) {
      read += 1;
      const key = first(entry, 'Key') ?? '';
      const parts = key.slice(location.prefix.length).split('/');
      if (key.endsWith('/') || (location.segments.length > 0 && !keyMatches(location.segments, parts))) continue;
      objects.push({ name: key.slice(location.prefix.length), size: Number(first(entry, 'Size') ?? '0'), modified: new Date(first(entry, 'LastModified') ?? 0) });
      if (objects.length >= max) return { objects, truncated: true };
    }
    if (read >= max) return { objects, truncated: true };
    token = first(answer.body, 'IsTruncated') === 'true' ? first(answer.body, 'NextContinuationToken') : undefined;
  } while (token !== undefined);
  return { objects, truncated: false };
}
