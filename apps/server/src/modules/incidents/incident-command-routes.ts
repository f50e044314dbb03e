import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  can,
  createdIncidentSchema,
  createIncidentBodySchema,
  deletedHypothesesSchema,
  hypothesisIdParamsSchema,
  incidentIdParamsSchema,
  linkedEvidenceSchema,
  linkEvidenceBodySchema,
  type Permission,
} from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { createIncident, deleteHypothesis, linkEvidence } from './incident-commands';

const INCIDENT_WRITE: Permission = { resource: 'incident', action: 'write' };
const EVIDENCE_WRITE: Permission = { resource: 'evidences', action: 'write' };
const COMMENT_WRITE: Permission = { resource: 'comments', action: 'write' };

/**
 * The route's own permission is checked before validation (platform/http.ts); a command writing further tables needs
 * what writing each of them through the data API needs, checked here.
 */
function requireAll(request: FastifyRequest, permissions: readonly Permission[]): string {
  const principal = request.principal;
  if (principal === null) throw errors.unauthenticated();
  for (const permission of permissions) {
    if (!can(principal.roles, permission.resource, permission.action)) throw errors.forbidden(`${permission.action} ${permission.resource}`);
  }
  return principal.personId;
}

/**
 * The incident commands: each is one transaction in place of two or three sequential writes from the browser, so a
 * failure leaves no half-created incident, orphan hypothesis or half-deleted branch (ADR 0045).
 */
export function registerIncidentCommands(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const pool = context.db.pool;
  const evidenceWritten = () => context.bus.publish({ name: 'evidence.updated', payload: {} });

  typed.post(
    '/api/incidents',
    {
      config: { permission: INCIDENT_WRITE },
      schema: {
        tags: ['incidents'],
        summary: 'Create an incident with its root hypothesis and, optionally, the evidence it was opened from',
        description:
          'One transaction: the incident (creator, commander and communicator are the caller), a root hypothesis with the same title and status possible, and the evidence when given. Needs write on incident, and on evidences when evidence is given.',
        body: createIncidentBodySchema,
        response: { 201: createdIncidentSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const personId = requireAll(request, request.body.evidence === undefined ? [INCIDENT_WRITE] : [INCIDENT_WRITE, EVIDENCE_WRITE]);
      const created = await createIncident(pool, request.body, personId);
      if (created.evidence_id !== null) evidenceWritten();
      return reply.status(201).send(created);
    },
  );

  typed.post(
    '/api/incidents/:id/evidence',
    {
      config: { permission: EVIDENCE_WRITE },
      schema: {
        tags: ['incidents'],
        summary: 'Attach evidence to an incident, to an existing hypothesis or to a new one',
        description:
          'One transaction. With hypothesis_title a hypothesis is created first, under the oldest one that may have children (root when the incident has none), which also needs write on incident.',
        params: incidentIdParamsSchema,
        body: linkEvidenceBodySchema,
        response: { 201: linkedEvidenceSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const personId = requireAll(request, request.body.hypothesis_title === undefined ? [EVIDENCE_WRITE] : [EVIDENCE_WRITE, INCIDENT_WRITE]);
      const linked = await linkEvidence(pool, request.params.id, request.body, personId);
      evidenceWritten();
      return reply.status(201).send(linked);
    },
  );

  typed.delete(
    '/api/hypotheses/:id',
    {
      config: { permission: INCIDENT_WRITE },
      schema: {
        tags: ['incidents'],
        summary: 'Delete a hypothesis and every hypothesis beneath it, with their comments and evidence',
        description: 'One transaction. Needs write on incident, evidences and comments.',
        params: hypothesisIdParamsSchema,
        response: { 200: deletedHypothesesSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const personId = requireAll(request, [INCIDENT_WRITE, EVIDENCE_WRITE, COMMENT_WRITE]);
      const deleted = await deleteHypothesis(pool, request.params.id, personId);
      if (deleted.evidences > 0) evidenceWritten();
      return deleted;
    },
  );
}
