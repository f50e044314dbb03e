import os from 'node:os';
import type pg from 'pg';
import {
  normalizeParameterValue,
  validatePlaybookParams,
  type PlaybookParameter,
  type PlaybookSpec,
  type PlaybookTargetType,
  type PlaybookWebhookRequest,
} from '@opsdeck/shared';
import { AppError } from '../../platform/errors';
import type { EventBus } from '../../platform/event-bus';
import { enqueue } from '../../platform/event-queue';
import { sealSecretParameters } from './secret-parameters';
import { parsePlaybookSpec } from './spec';
import { loadTarget, selectorMatches, targetMatches } from './selectors';
import { resolveParameterDefaults } from './templating';
import type { ActionState, PlaybookTarget, TemplateContext } from './types';
import { inTransaction } from '../../db/transaction';

type Queryable = Pick<pg.PoolClient, 'query'>;

/** Published once a run is stored, so the workers of this process claim it at once instead of at their next poll. */
export const PLAYBOOK_RUN_REQUESTED_EVENT = 'playbook.run-requested';

/** Published by the cancel route, so the worker of this process holding the run aborts its action at once. */
export const PLAYBOOK_RUN_CANCELLED_EVENT = 'playbook.run-cancelled';
export const PLAYBOOK_APPROVAL_EVENT = 'playbook.approval.inserted';
export const PLAYBOOK_CANCELLED_ERROR = 'The run was cancelled';
export const PLAYBOOK_JOB_NAME = 'PlaybookRun';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How the run request and the screens name each kind of target (spec 001 §2.4 labels the picker so). */
export const TARGET_LABELS: Readonly<Record<PlaybookTargetType, string>> = {
  config: 'catalog item',
  component: 'component',
  check: 'check',
};

export const playbookErrors = {
  notFound: () => new AppError(404, 'OD_PLAYBOOK_NOT_FOUND', 'Playbook not found', null, 'It may have been deleted; choose another playbook'),
  target: (message: string, details?: string) =>
    new AppError(400, 'OD_PLAYBOOK_TARGET', message, details ?? null, 'Run the playbook on a resource it is offered for'),
  /** `details` is the JSON text of parameter name → message, the shape the run form shows next to each field. */
  params: (problems: Record<string, string>) =>
    new AppError(
      400,
      'OD_PLAYBOOK_PARAMS',
      `The parameters are not valid: ${Object.entries(problems)
        .map(([name, message]) => `${name}: ${message}`)
        .join('; ')}`,
      JSON.stringify(problems),
      'Fix the parameters named in details and run again',
    ),
  runNotFound: () => new AppError(404, 'OD404', 'Playbook run not found'),
  actionNotFound: () => new AppError(404, 'OD404', 'Playbook run action not found'),
  runFinished: (status: string) =>
    new AppError(400, 'OD_PLAYBOOK_RUN_FINISHED', `The run has already finished: it is ${status}`, status, 'Re-run the playbook to run it again'),
  notWaiting: (status: string) =>
    new AppError(400, 'OD_PLAYBOOK_RUN_NOT_WAITING', `The run is not waiting for approval: it is ${status}`, status),
  notApprover: () =>
    new AppError(
      403,
      'OD_PLAYBOOK_NOT_APPROVER',
      'You are not an approver of this playbook',
      null,
      "Ask one of the people or teams listed in the playbook's approval to approve the run",
    ),
  ownRun: () =>
    new AppError(
      403,
      'OD_PLAYBOOK_OWN_RUN',
      'You requested this run, and nobody may approve their own run, even as one of its approvers',
      null,
      "Ask another of the people or teams listed in the playbook's approval to approve it",
    ),
} as const;

export interface LivePlaybook {
  id: string;
  name: string;
  title: string | null;
  icon: string | null;
  category: string | null;
  description: string | null;
  /** As stored: parsePlaybookSpec checks it. */
  spec: unknown;
}

export async function loadLivePlaybook(client: Queryable, id: string): Promise<LivePlaybook | null> {
  if (!UUID.test(id)) return null;
  const found = await client.query<LivePlaybook>(
    'select id, name, title, icon, category, description, spec from playbooks where id = $1 and deleted_at is null',
    [id],
  );
  return found.rows[0] ?? null;
}

export interface TargetRef {
  type: PlaybookTargetType;
  id: string;
}

/** The one target id of a request (config_id, component_id or check_id); refuses more than one. */
export function targetOfRequest(ids: { config_id?: string | undefined; component_id?: string | undefined; check_id?: string | undefined }): TargetRef | null {
  const given: TargetRef[] = [];
  if (ids.config_id !== undefined) given.push({ type: 'config', id: ids.config_id });
  if (ids.component_id !== undefined) given.push({ type: 'component', id: ids.component_id });
  if (ids.check_id !== undefined) given.push({ type: 'check', id: ids.check_id });
  if (given.length > 1) throw playbookErrors.target('A run has one target: give only one of config_id, component_id and check_id');
  return given[0] ?? null;
}

export function offersTargets(spec: PlaybookSpec): boolean {
  return (spec.configs?.length ?? 0) + (spec.components?.length ?? 0) + (spec.checks?.length ?? 0) > 0;
}

/** The target row, matched against the playbook's selectors; refuses an unknown one or one the playbook is not for. */
export async function resolveTarget(client: Queryable, spec: PlaybookSpec, ref: TargetRef | null): Promise<PlaybookTarget | null> {
  if (ref === null) {
    if (offersTargets(spec)) throw playbookErrors.target('This playbook runs on a resource: choose the catalog item, component or check to run it on');
    return null;
  }
  const target = await loadTargetOf(client, ref);
  if (!targetMatches(spec, target)) {
    throw playbookErrors.target(`This playbook is not offered for the ${TARGET_LABELS[ref.type]} '${target.name}'`, `${ref.type}_id`);
  }
  return target;
}

/** The live resource a request names; refuses an unknown one. */
export async function loadTargetOf(client: Queryable, ref: TargetRef): Promise<PlaybookTarget> {
  const target = UUID.test(ref.id) ? await loadTarget(client, ref.type, ref.id) : null;
  if (target === null) throw playbookErrors.target(`The ${TARGET_LABELS[ref.type]} ${ref.id} does not exist`, `${ref.type}_id`);
  return target;
}

export interface RunPerson {
  id: string;
  name: string;
  email: string | null;
}

export async function loadPerson(client: Queryable, id: string | null): Promise<RunPerson | null> {
  if (id === null) return null;
  const found = await client.query<RunPerson>('select id, name, email from people where id = $1', [id]);
  return found.rows[0] ?? null;
}

export interface ContextInput {
  playbook: { id: string; name: string; title: string | null };
  runId: string;
  params: Record<string, unknown>;
  target: PlaybookTarget | null;
  user: RunPerson | null;
  actions?: Record<string, ActionState>;
  request?: PlaybookWebhookRequest | null;
}

/** What templates and `if` conditions of a run see (types.ts TemplateContext). */
export function templateContext(input: ContextInput): TemplateContext {
  const context: TemplateContext = {
    params: input.params,
    playbook: input.playbook,
    run: { id: input.runId },
    user: input.user,
    actions: input.actions ?? {},
  };
  if (input.request !== undefined && input.request !== null) context.request = input.request;
  if (input.target !== null) context[input.target.type] = input.target.row;
  return context;
}

/** A config, component or check parameter whose item is gone by the time the run reads it. */
export interface GoneParameter {
  name: string;
  type: PlaybookTargetType;
}

/**
 * What templates read as `params`: a config, component or check parameter is the item itself, in the shape `.config`,
 * `.component` and `.check` have (`.params.x.name`, `.params.x.config.spec`), as Mission Control's templates read it;
 * the run keeps the id and each pick-up reads the live row again. Other parameters stay the text the run keeps.
 */
export async function templateParameters(
  client: Queryable,
  definitions: readonly PlaybookParameter[],
  values: Readonly<Record<string, string>>,
): Promise<{ params: Record<string, unknown> } | { gone: GoneParameter }> {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) setOwn(params, name, value);
  for (const { name, type } of definitions) {
    if (type !== 'config' && type !== 'component' && type !== 'check') continue;
    const id = (values[name] ?? '').trim();
    if (id === '') continue;
    const item = await loadTarget(client, type, id);
    if (item === null) return { gone: { name, type } };
    setOwn(params, name, item.row);
  }
  return { params };
}

/** The parameters with their defaults resolved for the target, as the get-params call answers and a run fills them in. */
export async function parametersFor(
  playbook: LivePlaybook,
  spec: PlaybookSpec,
  target: PlaybookTarget | null,
  user: RunPerson | null,
): Promise<PlaybookParameter[]> {
  const context = templateContext({ playbook, runId: '', params: {}, target, user });
  return resolveParameterDefaults(spec.parameters ?? [], context);
}

const RESOURCE_TABLES: Readonly<Record<'team' | 'people', string>> = { team: 'teams', people: 'people' };
const GONE: Readonly<Record<'team' | 'people' | PlaybookTargetType, string>> = {
  team: 'This team does not exist',
  people: 'This person does not exist',
  config: 'This catalog item does not exist',
  component: 'This component does not exist',
  check: 'This check does not exist',
};

/** A resource parameter's value must name a live row, and one of those its filter offers. */
async function resourceMessage(client: Queryable, definition: PlaybookParameter, value: string): Promise<string | null> {
  const { type } = definition;
  if (value.trim() === '') return null;
  if (type === 'team' || type === 'people') {
    const found = await client.query(`select 1 from ${RESOURCE_TABLES[type]} where id = $1 and deleted_at is null`, [value.trim()]);
    return found.rowCount === 0 ? GONE[type] : null;
  }
  if (type !== 'config' && type !== 'component' && type !== 'check') return null;
  const row = await loadTarget(client, type, value.trim());
  if (row === null) return GONE[type];
  const filter = definition.properties?.filter ?? [];
  if (filter.length > 0 && !filter.some((selector) => selectorMatches(selector, row))) {
    return `This ${TARGET_LABELS[type]} is not one this parameter offers`;
  }
  return null;
}

/** An own property even for a name such as __proto__, which plain assignment would take for the prototype. */
function setOwn<T>(values: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(values, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The values a run keeps: each normalised to text, a missing one filled with its resolved default, then checked with
 * the rules the run form uses (playbook-params.ts) and, for resource parameters, against the database.
 */
export async function checkedParameters(
  client: Queryable,
  definitions: PlaybookParameter[],
  given: Readonly<Record<string, unknown>>,
): Promise<Record<string, string>> {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const values: Record<string, string> = {};
  for (const [name, raw] of Object.entries(given)) {
    const definition = byName.get(name);
    setOwn(values, name, definition === undefined ? (typeof raw === 'string' ? raw : JSON.stringify(raw)) : normalizeParameterValue(definition, raw));
  }
  for (const definition of definitions) {
    if (!Object.hasOwn(values, definition.name) && definition.default !== undefined) setOwn(values, definition.name, definition.default);
  }
  const problems = validatePlaybookParams(definitions, values);
  for (const definition of definitions) {
    if (Object.hasOwn(problems, definition.name)) continue;
    const message = await resourceMessage(client, definition, values[definition.name] ?? '');
    if (message !== null) problems[definition.name] = message;
  }
  if (Object.keys(problems).length > 0) throw playbookErrors.params(problems);
  return values;
}

export interface PlaybookRunInput {
  playbookId: string;
  target: TargetRef | null;
  /** Parameter name → value; strings, or what a pasted request holds (true, 3, an object for code). */
  params: Readonly<Record<string, unknown>>;
  createdBy: string | null;
  parentId?: string | null;
  /** Wakes this process's workers once the run is stored. Leave it out inside a transaction: they find it when they poll. */
  bus?: EventBus;
  /** Seals the values of `secret` parameters; a run request holding one without it is refused. */
  secretKey?: Buffer;
  /**
   * Started by an `on` trigger (playbook-triggers.ts), which has matched the target against the spec's selectors of
   * its kind, or found none: the target need not be one a person would be offered.
   */
  triggered?: boolean;
  /** The webhook request that started the run (on.webhook), which templates read as `.request`. */
  request?: PlaybookWebhookRequest;
}

/**
 * Requests a run (POST /api/playbook/run, the seed, the bench): the live playbook, its target matched against the
 * spec's selectors, the parameters checked with their defaults filled in. The run keeps the spec as it is now, and
 * starts `waiting` when the spec asks for approval, else `pending` for a worker to claim.
 */
/** The spec a run keeps: the webhook's credentials stay with the playbook, sealed, and out of every run's copy. */
function runSpecOf(spec: PlaybookSpec): PlaybookSpec {
  if (spec.on?.webhook === undefined) return spec;
  const { webhook: _credentials, ...events } = spec.on;
  return Object.keys(events).length === 0 ? { ...spec, on: undefined } : { ...spec, on: events };
}

export async function requestPlaybookRun(client: Queryable, input: PlaybookRunInput): Promise<{ runId: string }> {
  const playbook = await loadLivePlaybook(client, input.playbookId);
  if (playbook === null) throw playbookErrors.notFound();
  const spec = parsePlaybookSpec(playbook.spec);
  const target = input.triggered === true && input.target !== null ? await loadTargetOf(client, input.target) : await resolveTarget(client, spec, input.target);
  const definitions = await parametersFor(playbook, spec, target, await loadPerson(client, input.createdBy));
  const checked = await checkedParameters(client, definitions, input.params);
  const holdsSecret = definitions.some((definition) => definition.type === 'secret' && (checked[definition.name] ?? '') !== '');
  if (holdsSecret && input.secretKey === undefined) throw new Error('A run with a secret parameter needs the key that seals it');
  const params = input.secretKey === undefined ? checked : sealSecretParameters(input.secretKey, playbook.id, definitions, checked);
  const inserted = await client.query<{ id: string }>(
    `insert into playbook_runs (playbook_id, status, parameters, config_id, component_id, check_id, parent_id, created_by, spec, request)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
    [
      playbook.id,
      spec.approval === undefined ? 'pending' : 'waiting',
      JSON.stringify(params),
      target?.type === 'config' ? target.id : null,
      target?.type === 'component' ? target.id : null,
      target?.type === 'check' ? target.id : null,
      input.parentId ?? null,
      input.createdBy,
      JSON.stringify(runSpecOf(spec)),
      input.request === undefined ? null : JSON.stringify(input.request),
    ],
  );
  const runId = inserted.rows[0]?.id;
  if (runId === undefined) throw new Error('playbook_runs insert returned no id');
  input.bus?.publish({ name: PLAYBOOK_RUN_REQUESTED_EVENT, payload: { id: runId } });
  return { runId };
}

/** Actions of a cancelled run that had not finished: they will not run, and a sleeping one will not wake. */
export async function cancelUnfinishedActions(client: Queryable, runId: string): Promise<void> {
  await client.query(
    `update playbook_run_actions set status = 'cancelled', error = coalesce(error, $2), end_time = now()
      where playbook_run_id = $1 and status in ('pending', 'running', 'sleeping')`,
    [runId, PLAYBOOK_CANCELLED_ERROR],
  );
}

/**
 * The end of a run, in the caller's transaction: its job_history row (SUCCESS, FAILED, or STOPPED when cancelled; the
 * run's own error and each failed action's in details.errors) and a `playbook.run.<status>` event.
 */
export async function recordRunEnd(client: Queryable, runId: string): Promise<void> {
  const recorded = await client.query<{ playbook_id: string; status: string; error: string | null }>(
    `insert into job_history (name, resource_type, resource_id, status, success_count, error_count, duration_millis, hostname,
                              time_start, time_end, details, agent_id)
     select $2, 'playbook', r.playbook_id,
            case r.status when 'completed' then 'SUCCESS' when 'failed' then 'FAILED' else 'STOPPED' end,
            (select count(*) from playbook_run_actions a where a.playbook_run_id = r.id and a.status = 'completed'),
            (select count(*) from playbook_run_actions a where a.playbook_run_id = r.id and a.status = 'failed'),
            greatest(0, round(extract(epoch from (coalesce(r.end_time, now()) - coalesce(r.start_time, r.created_at))) * 1000))::integer,
            $3, coalesce(r.start_time, r.created_at), coalesce(r.end_time, now()),
            jsonb_build_object(
              'run_id', r.id,
              'status', r.status,
              'errors', (select coalesce(jsonb_agg(e.message order by e.position), '[]'::jsonb)
                           from (select -1 as position, r.error as message where r.error is not null
                                 union all
                                 select a.position, a.name || ': ' || a.error from playbook_run_actions a
                                  where a.playbook_run_id = r.id and a.status = 'failed' and a.error is not null) e)),
            r.agent_id
       from playbook_runs r where r.id = $1
     returning resource_id as playbook_id, (details ->> 'status') as status, (details -> 'errors' ->> 0) as error`,
    [runId, PLAYBOOK_JOB_NAME, os.hostname()],
  );
  const row = recorded.rows[0];
  if (row === undefined) return;
  await enqueue(client, `playbook.run.${row.status}`, { run_id: runId, playbook_id: row.playbook_id, status: row.status, error: row.error });
}

/**
 * Cancels a run that has not finished. A worker that holds the run (a live lease) sees the status, aborts its action
 * and records the end; otherwise the run is closed here: its sleeping or interrupted action cancelled, job_history and
 * the event written. `closed` says which.
 */
export async function cancelPlaybookRun(pool: pg.Pool, runId: string): Promise<{ closed: boolean }> {
  if (!UUID.test(runId)) throw playbookErrors.runNotFound();
  return inTransaction(pool, async (client) => {
    const found = await client.query<{ status: string; held: boolean }>(
      `select status, (status = 'running' and locked_by is not null and locked_until > now()) as held
         from playbook_runs where id = $1 for update`,
      [runId],
    );
    const run = found.rows[0];
    if (run === undefined) throw playbookErrors.runNotFound();
    if (run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled') throw playbookErrors.runFinished(run.status);
    if (run.held) {
      await client.query(`update playbook_runs set status = 'cancelled', end_time = now() where id = $1`, [runId]);
      return { closed: false };
    }
    await client.query(`update playbook_runs set status = 'cancelled', end_time = now(), locked_by = null, locked_until = null where id = $1`, [runId]);
    await cancelUnfinishedActions(client, runId);
    await recordRunEnd(client, runId);
    return { closed: true };
  });
}

export interface Approver {
  id: string;
}

/** Who could approve a run when it was requested (playbook_runs.approvers, migration 0110): ids only. */
interface RunApprovers {
  people: string[];
  teams: Array<{ id: string; members: string[] }>;
}

interface ApprovalRow {
  status: string;
  playbook_id: string;
  created_by: string | null;
  type: string | null;
  approvers: unknown;
}

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The stored snapshot; anything else (a run stored before it existed, or by hand) lets nobody approve. */
function runApprovers(value: unknown): RunApprovers {
  if (typeof value !== 'object' || value === null) return { people: [], teams: [] };
  const { people, teams } = value as { people?: unknown; teams?: unknown };
  return {
    people: ids(people),
    teams: (Array.isArray(teams) ? teams : []).flatMap((team: unknown) => {
      if (typeof team !== 'object' || team === null) return [];
      const { id, members } = team as { id?: unknown; members?: unknown };
      return typeof id === 'string' ? [{ id, members: ids(members) }] : [];
    }),
  };
}

/**
 * Listed by id, or a member of a listed team both when the run was requested and now: joining later does not count,
 * and neither does a membership withdrawn since.
 */
function mayApprove(approvers: RunApprovers, personId: string, teamsNow: ReadonlySet<string>): boolean {
  return approvers.people.includes(personId) || approvers.teams.some((team) => team.members.includes(personId) && teamsNow.has(team.id));
}

/** `all`: every listed person approved, and for every listed team one who was its member at the request. */
function everyoneApproved(approvers: RunApprovers, approved: ReadonlySet<string>): boolean {
  return approvers.people.every((id) => approved.has(id)) && approvers.teams.every((team) => team.members.some((id) => approved.has(id)));
}

/**
 * Records `person`'s approval of a waiting run (POST /api/playbook/run/approve/{playbook_id}/{run_id}) and writes the
 * playbook.approval.inserted event. Only ids count: those the run took when it was requested (the spec's names were
 * resolved when it was saved), so a same-named team or a membership added since does not make anyone an approver, and
 * the requester never approves their own run. The run becomes pending with the first approval (`any`, the default) or
 * once every listed approver has approved (`all`); `started` says whether it did.
 */
export async function approvePlaybookRun(pool: pg.Pool, playbookId: string, runId: string, person: Approver): Promise<{ started: boolean }> {
  if (!UUID.test(runId) || !UUID.test(playbookId)) throw playbookErrors.runNotFound();
  return inTransaction(pool, async (client) => {
    const found = await client.query<ApprovalRow>(
      `select r.status, r.playbook_id, r.created_by, coalesce(r.spec, p.spec) -> 'approval' ->> 'type' as type, r.approvers
         from playbook_runs r join playbooks p on p.id = r.playbook_id where r.id = $1 for update of r`,
      [runId],
    );
    const run = found.rows[0];
    if (run === undefined || run.playbook_id !== playbookId) throw playbookErrors.runNotFound();
    if (run.status !== 'waiting') throw playbookErrors.notWaiting(run.status);
    if (run.created_by === person.id) throw playbookErrors.ownRun();
    const approvers = runApprovers(run.approvers);
    const memberships = await client.query<{ team_id: string }>(
      'select m.team_id from team_members m join teams t on t.id = m.team_id and t.deleted_at is null where m.person_id = $1',
      [person.id],
    );
    if (!mayApprove(approvers, person.id, new Set(memberships.rows.map((row) => row.team_id)))) throw playbookErrors.notApprover();
    await client.query(
      `insert into playbook_run_approvals (playbook_run_id, person_id) values ($1, $2) on conflict (playbook_run_id, person_id) do nothing`,
      [runId, person.id],
    );
    await enqueue(client, PLAYBOOK_APPROVAL_EVENT, { run_id: runId, playbook_id: playbookId, person_id: person.id });
    let started = true;
    if (run.type === 'all') {
      const approved = await client.query<{ person_id: string }>('select person_id from playbook_run_approvals where playbook_run_id = $1', [runId]);
      started = everyoneApproved(approvers, new Set(approved.rows.map((row) => row.person_id)));
    }
    if (started) await client.query(`update playbook_runs set status = 'pending', scheduled_time = now() where id = $1`, [runId]);
    return { started };
  });
}
