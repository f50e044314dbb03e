import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { stringify } from 'yaml';
import { z } from 'zod';
import { errors } from '../../platform/errors';
import type { Principal } from '../../platform/principal';
import { mayReadSecretEnvelopes, redactSecretEnvelopes } from '../../platform/sealed-redaction';
import { sealCanarySpec } from './canary-secrets';
import { canarySpecRefusal, CanarySpecError, checksFromCanarySpec, parseCanaryYaml, unwrapResource } from './canary-spec';
import { getCanary, insertCanary, softDeleteCanary, updateCanary, type CanaryFields, type CanaryRecord } from './canary-store';
import { canarySpecRunsExec, isExecCheckType, requireExecute } from './exec-permission';
import { isValidSchedule } from './schedule';
import { scheduleRefusal } from './spec-hooks';
import { checkSpecTargets } from './spec-targets';
import { checkValueReferences } from './value-references';

export const canaryBodySchema = z.object({
  name: z.string().trim().min(1, 'This field is required').max(255),
  namespace: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(4000).nullable().optional(),
  icon: z.string().max(255).nullable().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  schedule: z.string().max(200).nullable().optional(),
  spec: z.record(z.string(), z.unknown()).optional(),
  yaml: z.string().max(1024 * 1024).optional(),
});
type CanaryBody = z.infer<typeof canaryBodySchema>;

export const canaryIdParamsSchema = z.object({ id: z.uuid() });

export const canaryPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** What the canary routes need: the database, the key specs are sealed with, and what follows a save. */
export interface CanaryRouteDeps {
  pool: pg.Pool;
  secretKey: Buffer;
  /** Saved through this API: sync the canary's checks at once and run them now. */
  applyCanary: (id: string) => Promise<void>;
}

/**
 * Spec from `yaml` text or a `spec` object, its secrets sealed (canary-secrets.ts); the schedule column follows the
 * spec's schedule unless given.
 */
function canaryFields(body: CanaryBody, current: CanaryFields | null, secretKey: Buffer, canaryId: string): CanaryFields {
  let spec: Record<string, unknown>;
  try {
    if (body.yaml !== undefined) spec = parseCanaryYaml(body.yaml);
    else if (body.spec !== undefined) spec = unwrapResource(body.spec);
    else if (current !== null) spec = current.spec;
    else throw new CanarySpecError(['spec: give the canary spec as `spec` (an object) or `yaml` (text)']);
    checksFromCanarySpec(spec);
  } catch (error) {
    if (error instanceof CanarySpecError) throw canarySpecRefusal(error);
    throw error;
  }
  if (body.yaml !== undefined || body.spec !== undefined) spec = sealCanarySpec(secretKey, canaryId, spec).spec;
  const specSchedule = typeof spec.schedule === 'string' ? spec.schedule : null;
  const schedule = body.schedule !== undefined ? body.schedule : (specSchedule ?? current?.schedule ?? null);
  if (schedule !== null && !isValidSchedule(schedule)) throw scheduleRefusal(schedule);
  return {
    name: body.name,
    namespace: body.namespace ?? current?.namespace ?? 'default',
    description: body.description !== undefined ? body.description : (current?.description ?? null),
    icon: body.icon !== undefined ? body.icon : (current?.icon ?? null),
    labels: body.labels ?? current?.labels ?? {},
    schedule,
    spec,
  };
}

/** Exec checks in the spec, or live check rows of type exec (written through /api/db) that a sync would remove. */
function holdsExec(canary: CanaryRecord): boolean {
  return canarySpecRunsExec(canary.spec) || canary.checks.some((check) => isExecCheckType(check.type));
}

/** `GET /api/canary/canaries/:id`. */
export async function readCanary(deps: CanaryRouteDeps, id: string, principal: Principal | null): Promise<CanaryRecord> {
  const canary = await getCanary(deps.pool, id);
  if (canary === null) throw errors.notFound('Canary');
  if (mayReadSecretEnvelopes(principal?.roles ?? [], ['canaries'])) return canary;
  // Readers who cannot edit the canary get no ciphertext (issue #31), in the YAML form either.
  const spec = redactSecretEnvelopes(canary.spec);
  return { ...canary, spec, yaml: stringify(spec) };
}

/** `POST /api/canary/canaries`: the new canary's checks are synced and run at once. */
export async function createCanary(deps: CanaryRouteDeps, body: CanaryBody, principal: Principal | null, reply: FastifyReply): Promise<FastifyReply> {
  const id = randomUUID();
  const fields = canaryFields(body, null, deps.secretKey, id);
  await checkSpecTargets(deps.pool, fields.spec);
  await checkValueReferences(deps.pool, fields.spec, fields.namespace);
  if (canarySpecRunsExec(fields.spec)) requireExecute(principal?.roles ?? [], 'create a canary with exec checks');
  await insertCanary(deps.pool, id, fields, principal?.personId ?? null);
  await deps.applyCanary(id);
  const created = await getCanary(deps.pool, id);
  if (created === null) throw new Error('a canary just created could not be read back');
  return reply.status(201).send(created);
}

/** `PATCH /api/canary/canaries/:id`: fields left out keep their value; the spec is replaced whole when given. */
export async function editCanary(deps: CanaryRouteDeps, id: string, body: Partial<CanaryBody>, principal: Principal | null): Promise<CanaryRecord> {
  const current = await getCanary(deps.pool, id);
  if (current === null) throw errors.notFound('Canary');
  const fields = canaryFields({ ...body, name: body.name ?? current.name }, current, deps.secretKey, current.id);
  await checkSpecTargets(deps.pool, fields.spec);
  await checkValueReferences(deps.pool, fields.spec, fields.namespace);
  // Any edit of a canary that runs exec checks, not only of the checks: the spec is saved whole.
  if (holdsExec(current) || canarySpecRunsExec(fields.spec)) {
    requireExecute(principal?.roles ?? [], 'change a canary with exec checks');
  }
  await updateCanary(deps.pool, current.id, fields);
  await deps.applyCanary(current.id);
  const updated = await getCanary(deps.pool, current.id);
  if (updated === null) throw errors.notFound('Canary');
  return updated;
}

/** `DELETE /api/canary/canaries/:id`: a soft delete; the sync then removes the canary's checks. */
export async function deleteCanary(deps: CanaryRouteDeps, id: string, principal: Principal | null, reply: FastifyReply): Promise<FastifyReply> {
  const current = await getCanary(deps.pool, id);
  if (current === null) throw errors.notFound('Canary');
  // Deleting stops an admin's probe and its history with it: only someone who could have written it may.
  if (holdsExec(current)) requireExecute(principal?.roles ?? [], 'delete a canary with exec checks');
  if (!(await softDeleteCanary(deps.pool, id))) throw errors.notFound('Canary');
  await deps.applyCanary(id);
  return reply.status(204).send(null);
}
