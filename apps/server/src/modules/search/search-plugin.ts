import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { can } from '@opsdeck/shared';
import type { DomainPlugin } from '../../platform/http';
import { errorResponses } from '../../platform/openapi';
import { searchErrors } from './search-errors';
import { searchQuerySchema, searchResponseSchema } from './search-schemas';
import { search } from './search-service';
import { hasControlCharacter, normalizeSearchText, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX_LENGTH } from './search-text';

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return SEARCH_LIMIT_DEFAULT;
  if (!/^\d{1,3}$/.test(raw)) throw searchErrors.limit(raw);
  const limit = Number(raw);
  if (limit < 1 || limit > SEARCH_LIMIT_MAX) throw searchErrors.limit(raw);
  return limit;
}

/**
 * GET /api/search: the command palette's one call (issue #19 item 3). Any signed-in person may call it; each kind of
 * row is searched only when they may read its resource, the same rule the data API applies to the table.
 */
export const searchPlugin: DomainPlugin = {
  name: 'search',
  register(scoped, context) {
    const app = scoped.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/search',
      {
        config: { permission: 'authenticated' },
        schema: {
          tags: ['search'],
          summary: 'Checks, config items, components, incidents and playbooks whose name matches a text, best match first',
          description:
            'Each kind is included only when the caller may read its resource (checks: canaries, config items: database, components: topologies, ' +
            'incidents: incident, playbooks: playbooks); soft-deleted rows are never returned. See docs/search.md.',
          querystring: searchQuerySchema,
          response: { 200: searchResponseSchema, ...errorResponses(400) },
        },
      },
      async (request) => {
        const limit = parseLimit(request.query.limit);
        const raw = request.query.q ?? '';
        if (raw.length > SEARCH_TEXT_MAX_LENGTH) throw searchErrors.query(`it is ${raw.length} characters long, more than ${SEARCH_TEXT_MAX_LENGTH}`);
        if (hasControlCharacter(raw)) throw searchErrors.query('it holds a control character');
        const text = normalizeSearchText(raw);
        if (text === '') return { items: [] };
        const roles = request.principal?.roles ?? [];
        const items = await search(context.db.pool, { text, limit, canRead: (resource) => can(roles, resource, 'read') });
        return { items };
      },
    );
  },
};
