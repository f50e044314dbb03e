import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePermission } from './principal';

export interface SchemaRoute {
  /** Served as `/api/schemas/<file>`. */
  file: string;
  permission: RoutePermission;
  /** The OpenAPI tag of the module the spec belongs to. */
  tag: string;
  summary: string;
  document: Readonly<Record<string, unknown>>;
}

/** `GET /api/schemas/<file>`: a spec's JSON Schema, for editors that check YAML or JSON as it is typed. */
export function registerSchemaRoute(scoped: FastifyInstance, route: SchemaRoute): void {
  scoped.withTypeProvider<ZodTypeProvider>().get(
    `/api/schemas/${route.file}`,
    {
      config: { permission: route.permission, cacheable: true },
      schema: {
        tags: [route.tag],
        summary: route.summary,
        response: { 200: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12)') },
      },
    },
    async (_request, reply) => {
      // The same for everybody and changed only by a server release: an hour in the browser's own cache is safe.
      reply.header('cache-control', 'private, max-age=3600');
      return route.document;
    },
  );
}
