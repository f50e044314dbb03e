import type { Environment } from '@marcbachmann/cel-js/evaluator';
import { createCelEnvironment } from '../../platform/cel/cel-environment';
import { INCIDENT_RULE_SOURCES } from '@opsdeck/shared';

/**
 * The CEL of incident rule filters: `check`, `component` and `alert` are maps; the two that are not the source of the
 * event are empty, so `check.status == 'unhealthy'` fails to evaluate (no such key) for an alert and does not match.
 */
const environment = createCelEnvironment({ limits: { maxAstNodes: 500, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 } });
for (const name of INCIDENT_RULE_SOURCES) environment.registerVariable(name, 'map<string, dyn>');

type Compiled = ReturnType<Environment['parse']>;
const compiled = new Map<string, Compiled>();
const MAX_COMPILED = 1000;

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Why the filter is not a CEL bool over check, component and alert, or null when it is one. */
export function checkRuleFilter(filter: string): string | null {
  const result = environment.check(filter);
  if (!result.valid) return firstLine(result.error);
  if (result.type !== 'bool' && result.type !== 'dyn') return `it must return a bool, not ${result.type ?? 'nothing'}`;
  return null;
}

function compile(filter: string): Compiled {
  let parsed = compiled.get(filter);
  if (parsed === undefined) {
    parsed = environment.parse(filter);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(filter, parsed);
  }
  return parsed;
}

export type RuleFilterOutcome = { match: boolean } | { error: string };

/** Evaluates a rule's filter for one source; a missing key or a non-bool result is an error, which never matches. */
export function evaluateRuleFilter(filter: string, scope: Readonly<Record<string, Record<string, unknown>>>): RuleFilterOutcome {
  const context = Object.fromEntries(INCIDENT_RULE_SOURCES.map((name) => [name, scope[name] ?? {}]));
  try {
    const result: unknown = compile(filter)(context);
    if (typeof result !== 'boolean') return { error: `the filter returned ${typeof result}, not a bool` };
    return { match: result };
  } catch (error) {
    return { error: firstLine(error) };
  }
}
