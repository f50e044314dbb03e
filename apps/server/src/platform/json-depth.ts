import type { FastifyInstance } from 'fastify';
import { errors } from './errors';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Canary specs, evidence and settings need a handful of
 * levels; thousands make the recursive code after the parser (secret sealing, schema validation, PostgreSQL's jsonb
 * input) run out of stack, which is a 500 rather than the client's mistake.
 */
export const JSON_DEPTH_LIMIT = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Throws OD_JSON_DEPTH when `text` nests deeper than `limit`, before anything parses it. One pass over the text that
 * skips string contents; it counts brackets only, so malformed JSON is left for the parser to report.
 */
export function checkJsonDepth(text: string, limit: number = JSON_DEPTH_LIMIT): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth += 1;
      if (depth > limit) throw errors.jsonTooDeep(limit);
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth -= 1;
    }
  }
}

/**
 * Replaces the instance's application/json parser with Fastify's own behind the depth check, so every route
 * registered on it (or in a plugin under it) refuses deep bodies with a coded 400.
 */
export function limitJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    try {
      checkJsonDepth(body);
    } catch (error) {
      done(error instanceof Error ? error : errors.jsonTooDeep(JSON_DEPTH_LIMIT), undefined);
      return;
    }
    parse(request, body, done);
  });
}
