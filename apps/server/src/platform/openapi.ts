import type { FastifySchema } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@opsdeck/shared';
import type { RoutePermission } from './principal';

type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 501 | 502 | 503;

/** The error answers a route gives beyond the ones every route may give, each with the shared `{code, message, details, hint}` body. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<S, typeof errorBodySchema>;
}

/** The `x-permission` of an operation: 'canaries:read', or 'public' / 'authenticated' for routes open to more. */
export function permissionLabel(permission: RoutePermission | undefined): string | undefined {
  if (permission === undefined) return undefined;
  return typeof permission === 'string' ? permission : `${permission.resource}:${permission.action}`;
}

/**
 * What the guard in http.ts answers before a handler runs: 401 without a session, 403 without the route's permission,
 * 400 for input that does not fit the route's schema.
 */
function guardResponses(schema: FastifySchema, permission: RoutePermission | undefined): Partial<Record<ErrorStatus, typeof errorBodySchema>> {
  const takesInput = schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined;
  return {
    ...(takesInput ? errorResponses(400) : {}),
    ...(permission === 'public' ? {} : errorResponses(401)),
    ...(permission === 'public' || permission === 'authenticated' ? {} : errorResponses(403)),
  };
}

/**
 * zod schemas to OpenAPI, as fastify-type-provider-zod does, plus each operation's permission and the error answers of
 * the permission guard and input validation, so a route declares only the answers of its own handler. A route's own
 * declaration of a status (the Kratos-shaped auth errors) wins.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  // A route declared without any schema arrives here with none.
  const schema: FastifySchema & { hide?: boolean } = (input.schema as FastifySchema | undefined) ?? {};
  if (schema.hide === true) return jsonSchemaTransform(input);
  const permission = input.route.config?.permission;
  const response = { ...guardResponses(schema, permission), ...(schema.response as Record<string, unknown> | undefined) };
  const transformed = jsonSchemaTransform({ ...input, schema: { ...schema, response } });
  const label = permissionLabel(permission);
  const security = securityOf(permission);
  return {
    ...transformed,
    schema: { ...transformed.schema, ...(label === undefined ? {} : { 'x-permission': label }), ...(security === undefined ? {} : { security }) },
  };
};

/** The security schemes http.ts declares: the browser's session cookie, and `Authorization: Bearer` tokens. */
export const SECURITY_SCHEMES = { session: 'session', bearer: 'bearer' } as const;

/**
 * How an operation is authenticated, as OpenAPI `security`: nothing for a public route; the agent's own bearer token
 * for the agent routes; else either the session cookie or a bearer token (a personal API token, odt_…, or a session
 * token).
 */
export function securityOf(permission: RoutePermission | undefined): Array<Record<string, string[]>> | undefined {
  if (permission === undefined) return undefined;
  if (permission === 'public') return [];
  if (permission === 'agent') return [{ [SECURITY_SCHEMES.bearer]: [] }];
  return [{ [SECURITY_SCHEMES.session]: [] }, { [SECURITY_SCHEMES.bearer]: [] }];
}
