import { Duration, type Environment } from '@marcbachmann/cel-js/evaluator';
import { createCelEnvironment } from '../../platform/cel/cel-environment';
import {
  AUTOMATIC_DEFINITION_OF_DONE_TYPES,
  DEFINITION_OF_DONE_DEFAULT_SCRIPTS,
  isAutomaticDefinitionOfDoneType,
  type AutomaticDefinitionOfDoneType,
  type ScriptValidation,
} from '@opsdeck/shared';

/**
 * CEL variables per evidence type. Every environment also has the constants healthy, unhealthy, warning, unknown
 * (health values) and open, resolved, silenced (analysis statuses), so `status == healthy` reads as in the spec's
 * shortcut. Missing text is '', a missing time is 1970-01-01T00:00:00Z and a missing age is 0s.
 *
 * `kind` is the item's type (a check type, component type, or config type such as Kubernetes::Pod): `type` is a CEL
 * built-in.
 *
 * check:           status, name, kind, severity, labels, last_runtime, last_transition_time,
 *                  age (time since the status last changed)
 * topology:        status, status_reason, name, kind, labels, age (time since the component last changed)
 * config:          health, status, name, kind, config_class, ready, deleted, labels, tags,
 *                  age (time since the item last changed)
 * config_analysis: status, severity, analyzer, analysis_type, summary, message, first_observed, last_observed,
 *                  age (time since last observed)
 */
const TIMESTAMP = 'google.protobuf.Timestamp';
const DURATION = 'google.protobuf.Duration';
const STRING_MAP = 'map<string, string>';

const VARIABLES: Readonly<Record<AutomaticDefinitionOfDoneType, Readonly<Record<string, string>>>> = {
  check: {
    status: 'string',
    name: 'string',
    kind: 'string',
    severity: 'string',
    labels: STRING_MAP,
    last_runtime: TIMESTAMP,
    last_transition_time: TIMESTAMP,
    age: DURATION,
  },
  topology: { status: 'string', status_reason: 'string', name: 'string', kind: 'string', labels: STRING_MAP, age: DURATION },
  config: {
    health: 'string',
    status: 'string',
    name: 'string',
    kind: 'string',
    config_class: 'string',
    ready: 'bool',
    deleted: 'bool',
    labels: STRING_MAP,
    tags: STRING_MAP,
    age: DURATION,
  },
  config_analysis: {
    status: 'string',
    severity: 'string',
    analyzer: 'string',
    analysis_type: 'string',
    summary: 'string',
    message: 'string',
    first_observed: TIMESTAMP,
    last_observed: TIMESTAMP,
    age: DURATION,
  },
};

const CONSTANTS = ['healthy', 'unhealthy', 'warning', 'unknown', 'open', 'resolved', 'silenced'] as const;
export const MAX_SCRIPT_LENGTH = 2000;

function buildEnvironment(type: AutomaticDefinitionOfDoneType): Environment {
  const env = createCelEnvironment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } });
  for (const name of CONSTANTS) env.registerConstant(name, 'string', name);
  for (const [name, celType] of Object.entries(VARIABLES[type])) env.registerVariable(name, celType);
  return env;
}

const ENVIRONMENTS = new Map<AutomaticDefinitionOfDoneType, Environment>(
  AUTOMATIC_DEFINITION_OF_DONE_TYPES.map((type) => [type, buildEnvironment(type)]),
);

function environmentFor(type: AutomaticDefinitionOfDoneType): Environment {
  const env = ENVIRONMENTS.get(type);
  if (env === undefined) throw new Error(`No CEL environment for ${type}`);
  return env;
}

interface CelErrorLike {
  summary?: unknown;
  message?: unknown;
}

function describeCelError(error: unknown): { summary: string; details: string | null } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as CelErrorLike;
  const message = typeof e.message === 'string' ? e.message : String(error);
  const summary = typeof e.summary === 'string' && e.summary !== '' ? e.summary : (message.split('\n')[0] ?? message);
  return { summary, details: message === summary ? null : message };
}

function checkAgainst(type: AutomaticDefinitionOfDoneType, script: string): ScriptValidation {
  const result = environmentFor(type).check(script);
  if (!result.valid) {
    const { summary, details } = describeCelError(result.error);
    return { valid: false, message: `Invalid definition of done script: ${summary}`, details };
  }
  if (result.type !== 'bool' && result.type !== 'dyn') {
    return { valid: false, message: `Invalid definition of done script: it must return a bool, not ${result.type ?? 'nothing'}`, details: null };
  }
  return { valid: true };
}

/**
 * Checks a script the way the evaluator will run it: parsed, type-checked against the variables of the evidence type
 * and returning a bool. Without a type (a PATCH that only sends the script), a script valid for any automatic type
 * is accepted; an empty or null script is valid (the type's default applies).
 */
export function validateDefinitionOfDoneScript(script: string | null | undefined, evidenceType?: string): ScriptValidation {
  if (script === null || script === undefined || script.trim() === '') return { valid: true };
  if (script.length > MAX_SCRIPT_LENGTH) {
    return { valid: false, message: `Invalid definition of done script: it is longer than ${MAX_SCRIPT_LENGTH} characters`, details: null };
  }
  if (evidenceType !== undefined) {
    if (!isAutomaticDefinitionOfDoneType(evidenceType)) {
      return {
        valid: false,
        message: `Invalid definition of done script: ${evidenceType} evidence has no state to evaluate; use check, topology, config or config_analysis evidence`,
        details: null,
      };
    }
    return checkAgainst(evidenceType, script);
  }
  const outcomes = AUTOMATIC_DEFINITION_OF_DONE_TYPES.map((type) => checkAgainst(type, script));
  if (outcomes.some((outcome) => outcome.valid)) return { valid: true };
  const failures = outcomes.filter((o): o is Extract<ScriptValidation, { valid: false }> => !o.valid);
  return failures.find((f) => !f.message.includes('Unknown variable')) ?? failures[0] ?? { valid: true };
}

export function effectiveScript(type: AutomaticDefinitionOfDoneType, script: string | null): string {
  return script === null || script.trim() === '' ? DEFINITION_OF_DONE_DEFAULT_SCRIPTS[type] : script;
}

const EPOCH = new Date(0);

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

function time(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string' && value !== '') return new Date(value);
  return EPOCH;
}

function ageSince(value: unknown, now: Date): Duration {
  if (value === null || value === undefined) return new Duration(0, 0);
  return Duration.fromMilliseconds(Math.max(0, now.getTime() - time(value).getTime()));
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** The linked row as the database returns it (checks, components, config_items or config_analysis). */
export type LinkedRow = Readonly<Record<string, unknown>>;

export function celContext(type: AutomaticDefinitionOfDoneType, row: LinkedRow, now: Date): Record<string, unknown> {
  switch (type) {
    case 'check':
      return {
        status: row.status === null || row.status === undefined ? 'unknown' : text(row.status),
        name: text(row.name),
        kind: text(row.type),
        severity: text(row.severity),
        labels: stringMap(row.labels),
        last_runtime: time(row.last_runtime),
        last_transition_time: time(row.last_transition_time),
        age: ageSince(row.last_transition_time, now),
      };
    case 'topology':
      return {
        status: text(row.status),
        status_reason: text(row.status_reason),
        name: text(row.name),
        kind: text(row.type),
        labels: stringMap(row.labels),
        age: ageSince(row.updated_at, now),
      };
    case 'config':
      return {
        health: row.health === null || row.health === undefined ? 'unknown' : text(row.health),
        status: text(row.status),
        name: text(row.name),
        kind: text(row.type),
        config_class: text(row.config_class),
        ready: row.ready === true,
        deleted: row.deleted_at !== null && row.deleted_at !== undefined,
        labels: stringMap(row.labels),
        tags: stringMap(row.tags),
        age: ageSince(row.updated_at, now),
      };
    case 'config_analysis':
      return {
        status: text(row.status),
        severity: text(row.severity),
        analyzer: text(row.analyzer),
        analysis_type: text(row.analysis_type),
        summary: text(row.summary),
        message: text(row.message),
        first_observed: time(row.first_observed),
        last_observed: time(row.last_observed),
        age: ageSince(row.last_observed, now),
      };
  }
}

/** Evaluates the evidence's script (or its type's default) against the linked item; throws on a runtime error. */
export function evaluateDefinitionOfDone(type: AutomaticDefinitionOfDoneType, script: string | null, row: LinkedRow, now = new Date()): boolean {
  const result: unknown = environmentFor(type).evaluate(effectiveScript(type, script), celContext(type, row, now));
  if (typeof result !== 'boolean') throw new Error(`The definition of done script returned ${typeof result}, not a bool`);
  return result;
}
