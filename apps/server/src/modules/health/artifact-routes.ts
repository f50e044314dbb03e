import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { Permission } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';

/**
 * Reading the files exec checks and exec playbook actions kept (exec-artifacts.ts, ADR 0087). The data API never
 * reaches `exec_artifacts`; these routes do, each for one kind of owner and with that owner's read permission, so a
 * role that may not see playbook runs cannot read a run's files through the check route, nor the other way round.
 */

export type ArtifactOwner = 'check' | 'action';

const OWNER_COLUMN: Readonly<Record<ArtifactOwner, string>> = { check: 'check_id', action: 'playbook_run_action_id' };

/** An artifact as lists show it, its content left out. */
export const artifactInfoSchema = z.object({
  id: z.string(),
  path: z.string(),
  filename: z.string(),
  size: z.number(),
  checksum: z.string(),
  created_at: z.string(),
});

const LIST_COLUMNS = `id, path, regexp_replace(path, '^.*/', '') as filename, size::float8 as size, checksum,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;

/** The artifacts one owner kept, by path. */
export async function listArtifacts(pool: pg.Pool, owner: ArtifactOwner, ownerId: string): Promise<Array<z.infer<typeof artifactInfoSchema>>> {
  const found = await pool.query<z.infer<typeof artifactInfoSchema>>(`select ${LIST_COLUMNS} from exec_artifacts where ${OWNER_COLUMN[owner]} = $1 order by path, id`, [ownerId]);
  return found.rows;
}

/** The file's bytes as a download: never rendered by the browser whatever it holds (a script wrote it). */
async function sendArtifact(pool: pg.Pool, owner: ArtifactOwner, id: string, reply: FastifyReply): Promise<FastifyReply> {
  const found = await pool.query<{ path: string; content: Buffer }>(`select path, content from exec_artifacts where id = $1 and ${OWNER_COLUMN[owner]} is not null`, [id]);
  const row = found.rows[0];
  if (row === undefined) throw errors.notFound('Artifact');
  const filename = (row.path.split('/').at(-1) ?? 'artifact').replace(/[^A-Za-z0-9._-]/g, '_') || 'artifact';
  return reply
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    // The schema documents the body for OpenAPI; a Buffer goes out as it is, past the response serializer.
    .send(row.content as unknown as string);
}

const idParams = z.object({ id: z.uuid() });

/** GET `<prefix>/artifacts/{id}`: one owner kind's download route, guarded by `permission`. */
export function registerArtifactDownload(scoped: FastifyInstance, prefix: string, owner: ArtifactOwner, permission: Permission, pool: pg.Pool): void {
  scoped.withTypeProvider<ZodTypeProvider>().get(
    `${prefix}/artifacts/:id`,
    {
      config: { permission },
      schema: {
        tags: [owner === 'check' ? 'health' : 'playbooks'],
        summary: `Downloads a file an exec ${owner === 'check' ? 'check' : 'playbook action'} kept (application/octet-stream)`,
        params: idParams,
        response: { 200: z.string().describe('application/octet-stream'), ...errorResponses(404) },
      },
    },
    async (request, reply) => sendArtifact(pool, owner, request.params.id, reply),
  );
}
