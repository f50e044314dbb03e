import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PLAYBOOK_ACTION_STATUSES,
  PLAYBOOK_PARAMETER_SIZES,
  PLAYBOOK_PARAMETER_TYPES,
  PLAYBOOK_RUN_STATUSES,
  type PlaybookParameter,
  type PlaybookSpec,
  type RunnablePlaybook,
} from '@opsdeck/shared';
import type { AppContext } from '../../platform/context';
import { EVENT_QUEUE_WAKE } from '../../platform/event-queue';
import { errors } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { secretEnvelopesFor } from '../../platform/sealed-redaction';
import { artifactInfoSchema, registerArtifactDownload } from '../health';
import { parsePlaybookSpec } from './spec';
import { playbookPreflight } from './preflight';
import { matchingTargets, targetMatches } from './selectors';
import { loadPlaybookRun, loadPlaybookRunAction } from './run-queries';
import {
  approvePlaybookRun,
  cancelPlaybookRun,
  loadLivePlaybook,
  loadPerson,
  loadTargetOf,
  offersTargets,
  parametersFor,
  PLAYBOOK_RUN_CANCELLED_EVENT,
  PLAYBOOK_RUN_REQUESTED_EVENT,
  playbookErrors,
  requestPlaybookRun,
  resolveTarget,
  targetOfRequest,
} from './run-store';

const READ_PLAYBOOKS = { resource: 'playbooks', action: 'read' } as const;
const READ_RUNS = { resource: 'playbook_runs', action: 'read' } as const;
const WRITE_RUNS = { resource: 'playbook_runs', action: 'write' } as const;

/** Ids are checked by the handlers, so an unknown one is the coded 404 or OD_PLAYBOOK_TARGET rather than a schema error. */
const idText = z.string().max(64);
const optionalId = idText.nullish().transform((value) => value ?? undefined);
const targetIds = z.object({
  config_id: optionalId.describe('The catalog item to run on'),
  component_id: optionalId.describe('The component to run on'),
  check_id: optionalId.describe('The check to run on'),
});

const runRequestSchema = targetIds.extend({
  id: idText.describe('The playbook'),
  params: z
    .record(z.string().max(255), z.unknown())
    .optional()
    .describe('Parameter name → value; values are kept as text (true, 3 and objects for code parameters are turned into text)'),
});

const selectorSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  types: z.array(z.string()).optional(),
  statuses: z.array(z.string()).optional(),
  healths: z.array(z.string()).optional(),
  tagSelector: z.string().optional(),
  labelSelector: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  labels: z.record(z.string(), z.string()).optional(),
});

const parameterSchema = z.object({
  name: z.string(),
  label: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  type: z.enum(PLAYBOOK_PARAMETER_TYPES),
  required: z.boolean().optional(),
  default: z.string().optional().describe('Resolved for the chosen target'),
  properties: z
    .object({
      size: z.enum(PLAYBOOK_PARAMETER_SIZES).optional(),
      language: z.string().optional(),
      jsonSchemaUrl: z.string().optional(),
      options: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
      filter: z.array(selectorSchema).optional(),
      multiline: z.boolean().optional(),
      minLength: z.number().optional(),
      maxLength: z.number().optional(),
      regex: z.string().optional(),
      format: z.string().optional(),
      min: z.number().optional(),
      max: z.number().optional(),
    })
    .optional(),
});

const runnableSchema = z.object({
  id: z.guid(),
  name: z.string(),
  title: z.string().nullable(),
  icon: z.string().nullable(),
  category: z.string().nullable(),
  description: z.string().nullable(),
  spec: z.record(z.string(), z.unknown()).describe('The playbook spec, as GET /api/schemas/playbook-spec.schema.json describes it'),
});

const actionResultSchema = z.object({
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  logs: z.string().optional(),
  exitCode: z.number().optional(),
  status: z.number().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  rows: z.array(z.record(z.string(), z.unknown())).optional(),
  rowCount: z.number().optional(),
  truncated: z.boolean().optional(),
  artifactNotes: z.array(z.string()).optional(),
});

const runActionSchema = z.object({
  id: z.guid(),
  playbook_run_id: z.guid(),
  name: z.string(),
  status: z.enum(PLAYBOOK_ACTION_STATUSES),
  scheduled_time: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  error: z.string().nullable(),
  result: actionResultSchema.nullable(),
  artifacts: z.array(artifactInfoSchema),
});

const runSchema = z.object({
  id: z.guid(),
  playbook_id: z.guid(),
  playbooks: z.object({ id: z.guid(), name: z.string(), title: z.string().nullable(), icon: z.string().nullable() }).nullable(),
  status: z.enum(PLAYBOOK_RUN_STATUSES),
  parameters: z.record(z.string(), z.string()),
  config_id: z.guid().nullable(),
  component_id: z.guid().nullable(),
  check_id: z.guid().nullable(),
  target: z
    .object({ type: z.enum(['config', 'component', 'check']), id: z.guid(), name: z.string(), kind: z.string().nullable() })
    .nullable(),
  scheduled_time: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  created_at: z.string(),
  created_by: z.guid().nullable(),
  created_by_name: z.string().nullable(),
  error: z.string().nullable().describe("Why the run itself failed; the run detail shows it as the 'Initialization' step"),
  approval: z
    .object({ type: z.enum(['any', 'all']), people: z.array(z.string()), teams: z.array(z.string()), approved_by: z.array(z.string()) })
    .nullable()
    .describe('The approval the spec asks for, and the names of those who approved'),
  request: z
    .object({
      method: z.string(),
      url: z.string(),
      params: z.record(z.string(), z.string()),
      headers: z.record(z.string(), z.string()),
      content: z.string(),
      json: z.unknown().optional(),
    })
    .nullable()
    .describe('The webhook request that started the run (on.webhook), credentials and signatures left out; null for every other run'),
  actions: z.array(runActionSchema),
});

const idParams = z.object({ id: idText });
/** As many as a picker lists; typing narrows a longer list. */
const TARGET_OPTIONS_LIMIT = 50;

/** A parameter as the schema above describes it: the spec's interfaces are spread into plain objects. */
function answerParameter(parameter: PlaybookParameter): z.input<typeof parameterSchema> {
  const { properties, ...rest } = parameter;
  if (properties === undefined) return rest;
  const { filter, ...others } = properties;
  return { ...rest, properties: { ...others, ...(filter === undefined ? {} : { filter: filter.map((selector) => ({ ...selector })) }) } };
}

/**
 * The run API of spec 001 §7 'Playbooks' under /api/playbook: request a run, the parameters for a target, the
 * playbooks offered for a target, a run and an action, cancel and approve. The data API only reads runs
 * (spec-hooks.ts), so a run cannot skip these checks (target, parameters, approval).
 */
export function registerPlaybookRoutes(scoped: FastifyInstance, context: AppContext): void {
  const app = scoped.withTypeProvider<ZodTypeProvider>();
  const { pool } = context.db;
  registerArtifactDownload(scoped, '/api/playbook/run', 'action', READ_RUNS, pool);

  app.post(
    '/api/playbook/run',
    {
      config: { permission: WRITE_RUNS },
      schema: {
        tags: ['playbooks'],
        summary: 'Request a run of a playbook on a target with parameters; a worker starts it (after approval when the spec asks for it)',
        body: runRequestSchema,
        response: { 201: z.object({ run_id: z.guid() }), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { runId } = await requestPlaybookRun(pool, {
        playbookId: request.body.id,
        target: targetOfRequest(request.body),
        params: request.body.params ?? {},
        createdBy: request.principal?.personId ?? null,
        bus: context.bus,
        secretKey: context.config.secretKey,
      });
      return reply.status(201).send({ run_id: runId });
    },
  );

  app.post(
    '/api/playbook/:id/params',
    {
      config: { permission: READ_PLAYBOOKS },
      schema: {
        tags: ['playbooks'],
        summary: "The playbook's parameters with their defaults resolved for the chosen target",
        params: idParams,
        body: targetIds.optional(),
        response: { 200: z.object({ params: z.array(parameterSchema) }), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const playbook = await loadLivePlaybook(pool, request.params.id);
      if (playbook === null) throw playbookErrors.notFound();
      const spec = parsePlaybookSpec(playbook.spec);
      const ref = targetOfRequest(request.body ?? {});
      const target = ref === null ? null : await resolveTarget(pool, spec, ref);
      const user = await loadPerson(pool, request.principal?.personId ?? null);
      const params = await parametersFor(playbook, spec, target, user);
      return { params: params.map(answerParameter) };
    },
  );

  app.get(
    '/api/playbook/:id/targets',
    {
      config: { permission: READ_PLAYBOOKS },
      schema: {
        tags: ['playbooks'],
        summary: "Up to 50 live catalog items, components or checks the playbook's selectors offer it on, whose name holds search, by name",
        params: idParams,
        querystring: z.object({ type: z.enum(['config', 'component', 'check']), search: z.string().max(200).default('') }),
        response: { 200: z.array(z.object({ id: z.string(), name: z.string(), detail: z.string().nullable() })), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const playbook = await loadLivePlaybook(pool, request.params.id);
      if (playbook === null) throw playbookErrors.notFound();
      const spec = parsePlaybookSpec(playbook.spec);
      const targets = await matchingTargets(pool, spec, request.query.type, request.query.search, TARGET_OPTIONS_LIMIT);
      return targets.map((target) => ({ id: target.id, name: target.name, detail: target.kind }));
    },
  );

  app.get(
    '/api/playbook/:id/preflight',
    {
      // Who may run a playbook may ask what it needs: the answer probes the database of each SQL action (a TCP
      // connect to the stored host and port, no credentials sent).
      config: { permission: WRITE_RUNS },
      schema: {
        tags: ['playbooks'],
        summary: "What the playbook's actions need from this host before it is run, and whether the host has it now",
        description:
          'Looks for well-known command-line tools (kubectl, helm, aws, psql…) that scripts call without testing for them, kubectl without a cluster, and ' +
          'SQL connections whose database does not answer. A need that is not met is worded as one sentence for the Run dialog.',
        params: idParams,
        response: { 200: z.object({ needs: z.array(z.object({ action: z.string(), met: z.boolean(), message: z.string() })) }), ...errorResponses(404) },
      },
    },
    async (request) => {
      const playbook = await loadLivePlaybook(pool, request.params.id);
      if (playbook === null) throw playbookErrors.notFound();
      return { needs: await playbookPreflight(pool, parsePlaybookSpec(playbook.spec)) };
    },
  );

  app.get(
    '/api/playbook/list',
    {
      config: { permission: READ_PLAYBOOKS },
      schema: {
        tags: ['playbooks'],
        summary: 'The live playbooks offered for a catalog item, component or check (without one: those that take no target)',
        querystring: targetIds,
        response: { 200: z.array(runnableSchema), ...errorResponses(400) },
      },
    },
    async (request) => {
      const ref = targetOfRequest(request.query);
      const target = ref === null ? null : await loadTargetOf(pool, ref);
      const roles = request.principal?.roles ?? [];
      const found = await pool.query<Omit<RunnablePlaybook, 'spec'> & { spec: unknown }>(
        `select id, name, title, icon, category, description, spec from playbooks where deleted_at is null order by coalesce(title, name), id`,
      );
      const runnable: Array<z.input<typeof runnableSchema>> = [];
      for (const row of found.rows) {
        let spec: PlaybookSpec;
        try {
          spec = parsePlaybookSpec(row.spec);
        } catch {
          // A stored spec that no longer parses cannot be run; it is fixed in the editor.
          continue;
        }
        if (target === null ? !offersTargets(spec) : targetMatches(spec, target)) {
          // Only those who may edit playbooks get the envelopes of their sealed values (issue #31).
          runnable.push({ ...row, spec: secretEnvelopesFor(roles, ['playbooks'], { ...spec }) });
        }
      }
      return runnable;
    },
  );

  app.get(
    '/api/playbook/run/:id',
    {
      config: { permission: READ_RUNS },
      schema: {
        tags: ['playbooks'],
        summary: 'A run with its playbook, target, requester, approval and actions in spec order',
        params: idParams,
        response: { 200: runSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const run = await loadPlaybookRun(pool, request.params.id);
      if (run === null) throw playbookErrors.runNotFound();
      return run;
    },
  );

  app.get(
    '/api/playbook/run/action/:id',
    {
      config: { permission: READ_RUNS },
      schema: {
        tags: ['playbooks'],
        summary: "One action of a run with its result (stdout, stderr, logs…)",
        params: idParams,
        response: { 200: runActionSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const action = await loadPlaybookRunAction(pool, request.params.id);
      if (action === null) throw playbookErrors.actionNotFound();
      return action;
    },
  );

  app.post(
    '/api/playbook/run/:id/cancel',
    {
      config: { permission: WRITE_RUNS },
      schema: {
        tags: ['playbooks'],
        summary: 'Cancel a run that has not finished: its running action is stopped and the actions after it do not run',
        params: idParams,
        response: { 200: runSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { closed } = await cancelPlaybookRun(pool, request.params.id);
      if (closed) context.bus.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
      else context.bus.publish({ name: PLAYBOOK_RUN_CANCELLED_EVENT, payload: { id: request.params.id } });
      const run = await loadPlaybookRun(pool, request.params.id);
      if (run === null) throw playbookErrors.runNotFound();
      return run;
    },
  );

  app.post(
    '/api/playbook/run/approve/:playbook_id/:run_id',
    {
      // Being one of the run's approvers (by id, as of the request) is the permission; the role need only let the approver see runs.
      config: { permission: READ_RUNS },
      schema: {
        tags: ['playbooks'],
        summary: "Approve a run waiting for approval, as one of its approvers other than its requester; writes the playbook.approval.inserted event",
        params: z.object({ playbook_id: idText, run_id: idText }),
        response: { 200: runSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const principal = request.principal;
      if (principal === null) throw errors.unauthenticated();
      const { started } = await approvePlaybookRun(pool, request.params.playbook_id, request.params.run_id, { id: principal.personId });
      context.bus.publish({ name: EVENT_QUEUE_WAKE, payload: {} });
      if (started) context.bus.publish({ name: PLAYBOOK_RUN_REQUESTED_EVENT, payload: { id: request.params.run_id } });
      const run = await loadPlaybookRun(pool, request.params.run_id);
      if (run === null) throw playbookErrors.runNotFound();
      return run;
    },
  );
}
