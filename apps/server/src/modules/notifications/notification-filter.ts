import type { Environment } from '@marcbachmann/cel-js/evaluator';
import { createCelEnvironment } from '../../platform/cel/cel-environment';
import { literalMatchQueries, MatchQueryError, parseMatchQuery, withoutRootDots } from '../../platform/cel/match-query';
import { familyOf, variablesOf, type EventFamily, type NotificationEvent } from './notification-events';

const MAP = 'map<string, dyn>';
const ALL_FAMILIES: readonly EventFamily[] = ['check', 'component', 'config', 'playbook'];

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** The variables a filter over these events reads: `event` and the resources of their families. */
function variableNames(families: readonly EventFamily[]): string[] {
  return ['event', ...new Set(families.flatMap((family) => variablesOf(family)))];
}

const environments = new Map<string, Environment>();

function environmentFor(names: readonly string[]): Environment {
  const key = names.join(',');
  let environment = environments.get(key);
  if (environment === undefined) {
    environment = createCelEnvironment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } });
    for (const name of names) environment.registerVariable(name, MAP);
    environments.set(key, environment);
  }
  return environment;
}

function familiesOf(events: readonly NotificationEvent[] | null): readonly EventFamily[] {
  return events === null ? ALL_FAMILIES : [...new Set(events.map((event) => familyOf(event)))];
}

/**
 * Why the filter is not a CEL bool over the variables of these events, or null; the literal queries of its matchQuery
 * calls are read too, so a query this server does not run is refused on save rather than failing each event. Without events (a PATCH of the filter
 * alone) it is checked against every family's variables.
 */
export function checkFilter(filter: string, events: readonly NotificationEvent[] | null): string | null {
  const result = environmentFor(variableNames(familiesOf(events))).check(withoutRootDots(filter));
  if (!result.valid) return firstLine(result.error);
  if (result.type !== 'bool' && result.type !== 'dyn') return `it must return a bool, not ${result.type ?? 'nothing'}`;
  for (const query of literalMatchQueries(filter)) {
    try {
      parseMatchQuery(query);
    } catch (error) {
      if (error instanceof MatchQueryError) return error.message;
      throw error;
    }
  }
  return null;
}

export type FilterOutcome = { pass: boolean } | { error: string };

/**
 * Evaluates a notification's filter for one event; a blank filter passes everything. The variables of families other
 * than the event's are empty maps, so a filter written for several families still runs.
 */
export function evaluateFilter(
  filter: string | null,
  events: readonly NotificationEvent[],
  scope: Readonly<Record<string, Record<string, unknown>>>,
): FilterOutcome {
  if (filter === null || filter.trim() === '') return { pass: true };
  const names = variableNames(familiesOf(events));
  const context = Object.fromEntries(names.map((name) => [name, scope[name] ?? {}]));
  try {
    const result: unknown = environmentFor(names).evaluate(withoutRootDots(filter), context);
    if (typeof result !== 'boolean') return { error: `the filter returned ${typeof result}, not a bool` };
    return { pass: result };
  } catch (error) {
    return { error: firstLine(error) };
  }
}
