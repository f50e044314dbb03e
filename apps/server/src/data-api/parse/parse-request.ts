import type { IncomingHttpHeaders } from 'node:http';
import type { WriteMethod } from '../write-hooks';
import { parseCallArguments, type JsonRecord } from './body';
import { checkRequestShape, headerValue, negotiate, parsePreferences, parseRangeHeader, type MediaType, type Preferences, type RangeRequest } from './headers';
import { parseQuery, searchParamsOf, type ParsedQuery } from './query-string';

/** What the parse stage reads of an HTTP request; Fastify's request has this shape. */
export interface RawRequest {
  method: string;
  /** The request target as sent, query string included. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as text (the plugin's content-type parser keeps it unparsed), or undefined when there is none. */
  body: unknown;
}

interface Negotiated {
  prefs: Preferences;
  /** The representation answered: a JSON array, or the one row as an object. */
  media: MediaType;
}

export interface ReadRequest extends Negotiated {
  kind: 'read';
  relation: string;
  /** HEAD: the same answer without a body. */
  head: boolean;
  query: ParsedQuery;
  range: RangeRequest | null;
}

export interface WriteRequest extends Negotiated {
  kind: 'write';
  method: WriteMethod;
  relation: string;
  query: ParsedQuery;
  /**
   * The body as sent. It is read (parse/body.ts) once the relation, the permission and the method are known to allow
   * the write, so that those refusals answer first whatever the body holds.
   */
  body: unknown;
}

export interface CallRequest extends Negotiated {
  kind: 'call';
  function: string;
  /** GET and HEAD calls run read-only and take their arguments from the query string. */
  readOnly: boolean;
  head: boolean;
  /** The argument names offered, which choose the overload: body keys for POST, query keys for GET. */
  offered: ReadonlySet<string>;
  /** POST: the arguments from the body; GET: null, the arguments are in the query (parseQueryFor). */
  body: JsonRecord | null;
  /** The query string, once the chosen overload says which keys are arguments and which filter the result. */
  parseQueryFor(argNames: ReadonlySet<string>): ParsedQuery;
  /** The Range header, read only for functions returning rows: a scalar call ignores it. */
  parseRange(): RangeRequest | null;
}

function negotiated(raw: RawRequest): Negotiated {
  return { prefs: parsePreferences(raw.headers.prefer), media: negotiate(raw.headers.accept) };
}

function rangeOf(raw: RawRequest): RangeRequest | null {
  return parseRangeHeader(headerValue(raw.headers, 'range'), headerValue(raw.headers, 'range-unit'));
}

export function parseReadRequest(raw: RawRequest, relation: string): ReadRequest {
  checkRequestShape(raw.url, raw.headers);
  const query = parseQuery(searchParamsOf(raw.url));
  const { prefs, media } = negotiated(raw);
  return { kind: 'read', relation, head: raw.method === 'HEAD', query, prefs, media, range: rangeOf(raw) };
}

export function parseWriteRequest(raw: RawRequest, relation: string, method: WriteMethod): WriteRequest {
  checkRequestShape(raw.url, raw.headers);
  const query = parseQuery(searchParamsOf(raw.url));
  return { kind: 'write', method, relation, query, ...negotiated(raw), body: raw.body };
}

export function parseCallRequest(raw: RawRequest, name: string): CallRequest {
  checkRequestShape(raw.url, raw.headers);
  const readOnly = raw.method === 'GET' || raw.method === 'HEAD';
  const params = searchParamsOf(raw.url);
  const body = readOnly ? null : parseCallArguments(raw.body);
  return {
    kind: 'call',
    function: name,
    readOnly,
    head: raw.method === 'HEAD',
    offered: new Set(body === null ? params.keys() : Object.keys(body)),
    body,
    ...negotiated(raw),
    parseQueryFor: (argNames) => parseQuery(params, argNames),
    parseRange: () => rangeOf(raw),
  };
}
