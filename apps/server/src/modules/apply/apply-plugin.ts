import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@opsdeck/shared';
import { errors } from '../../platform/errors';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { applyResources } from './apply-service';
import { GitopsScheduler } from './gitops-scheduler';

/** The source an apply through the API marks its rows with; a GitOps folder's is `gitops:<folder>`. */
export const API_APPLY_SOURCE = 'apply';

const MAX_FILES = 500;

const bodySchema = z
  .object({
    yaml: z.string().max(5_000_000).optional().describe('Multi-document YAML (--- separated), as for kubectl apply -f'),
    files: z
      .array(z.object({ path: z.string().max(1024), content: z.string().max(5_000_000) }))
      .max(MAX_FILES)
      .optional()
      .describe('The files of a folder (npm run apply -f <folder>): refusals name the file'),
  })
  .refine((body) => body.yaml !== undefined || body.files !== undefined, { message: 'Give yaml or files' });

const querySchema = z.object({
  dryRun: z.enum(['true', 'false']).optional(),
  prune: z.enum(['true', 'false']).optional(),
});

const outcomeSchema = z.object({
  file: z.string().nullable(),
  index: z.number().int().nullable(),
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  action: z.enum(['created', 'updated', 'unchanged', 'refused', 'pruned']),
  error: errorBodySchema.nullable(),
});

/**
 * `POST /api/apply` (ADR 0074): Mission Control resources applied as manifests, each with its kind's own save rules and
 * write permission, all in one transaction; the route itself needs only a signed-in caller or an API token.
 */
export const applyPlugin: DomainPlugin = {
  name: 'apply',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/apply',
      {
        config: { permission: 'authenticated', audit: { resource: 'apply' } },
        schema: {
          tags: ['apply'],
          summary: 'Create or update Canary, ScrapeConfig, Playbook and Topology resources from manifests, all or nothing',
          description:
            'Each document is created or updated by kind, namespace and name and marked source `apply` (read-only in the console). ' +
            '`dryRun=true` reports per document created, updated, unchanged or refused and changes nothing; `prune=true` soft-deletes ' +
            'rows of source `apply` the request no longer holds. A refusal names the file, the document index and the field.',
          querystring: querySchema,
          body: bodySchema,
          response: { 200: z.object({ source: z.string(), dryRun: z.boolean(), documents: z.array(outcomeSchema) }), ...errorResponses(403, 409) },
        },
      },
      async (request) => {
        if (request.principal === null) throw errors.unauthenticated();
        const { yaml, files } = request.body;
        return applyResources(
          { db: context.db, bus: context.bus, secretKey: context.config.secretKey },
          {
            files: files ?? [{ path: null, content: yaml ?? '' }],
            source: API_APPLY_SOURCE,
            dryRun: request.query.dryRun === 'true',
            prune: request.query.prune === 'true',
            principal: request.principal,
          },
        );
      },
    );
    // The GitOps folder is background work: it runs where the workers run, never on an api-only node.
    if (context.config.role === 'api') return;
    const log = scoped.log.child({ module: 'gitops' });
    const gitops = new GitopsScheduler({
      db: context.db,
      bus: context.bus,
      secretKey: context.config.secretKey,
      roots: context.config.gitopsRoots,
      onError: (error) => log.warn({ err: error }, 'gitops reconcile failed'),
    });
    scoped.addHook('onReady', async () => gitops.start());
    scoped.addHook('onClose', async () => gitops.stop());
  },
};
