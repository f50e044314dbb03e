import vm from 'node:vm';
import type { EnvironmentOptions } from '@marcbachmann/cel-js';
import { Environment } from '@marcbachmann/cel-js/evaluator';
import { registerCelFunctions } from './cel-functions';
import { widenHas } from './has-rewrite';

/**
 * Structural limits every server expression is parsed under: enough for the largest transforms in Mission Control's
 * published fixtures (a few hundred nodes), small enough that no single expression is expensive to parse or check.
 */
export const CEL_LIMITS = { maxAstNodes: 2000, maxDepth: 32, maxListElements: 1000, maxMapEntries: 1000, maxCallArguments: 16 } as const;

export interface CelEnvironmentOptions {
  /** Identifiers not registered read from the evaluation context (canary-checker's result variables vary per check). */
  unlistedVariablesAreDyn?: boolean;
  limits?: EnvironmentOptions['limits'];
}

/** cel-js, reading every expression through widenHas so `has()` takes any field selection, as cel-go does. */
class ServerEnvironment extends Environment {
  override parse(expression: string): ReturnType<Environment['parse']> {
    return super.parse(widenHas(expression));
  }

  override check(expression: string): ReturnType<Environment['check']> {
    return super.check(widenHas(expression));
  }

  override evaluate(expression: string, context?: Parameters<Environment['evaluate']>[1]): ReturnType<Environment['evaluate']> {
    return super.evaluate(widenHas(expression), context);
  }
}

/**
 * The server's CEL: optional fields (`a.?b.orValue(x)`), mixed list and map literals as Mission Control writes them,
 * bounded structure, and the function library of cel-functions.ts. Each caller registers its own variables on the
 * environment it gets.
 */
export function createCelEnvironment(options: CelEnvironmentOptions = {}): Environment {
  const environment = new ServerEnvironment({
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: false,
    unlistedVariablesAreDyn: options.unlistedVariablesAreDyn ?? false,
    limits: { ...CEL_LIMITS, ...options.limits },
  });
  registerCelFunctions(environment);
  return environment;
}

/** The first line of a CEL error: cel-js adds a source excerpt with a caret below it. */
export function describeCelError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).trim();
}

export class CelBudgetError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the expression ran longer than its budget of ${budgetMs}ms and was stopped`);
    this.name = 'CelBudgetError';
  }
}

/** The one context the budget runs in: it holds nothing but the slot `runWithinBudget` fills for each call. */
const slot: { run: () => unknown } = { run: () => undefined };
const budgetContext = vm.createContext({ slot });
const budgetScript = new vm.Script('slot.run()');

/**
 * Runs `work` (synchronous CEL evaluation) under a wall-clock budget. cel-js evaluates in one synchronous call, which
 * no timer can interrupt; V8 can, through the watchdog of `vm`'s timeout, which terminates whatever JavaScript runs
 * under it. The script is fixed text that only calls `work`: no expression text ever reaches `vm`.
 */
export function runWithinBudget<T>(work: () => T, budgetMs: number): T {
  const previous = slot.run;
  slot.run = work;
  try {
    return budgetScript.runInContext(budgetContext, { timeout: budgetMs }) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new CelBudgetError(budgetMs);
    throw error;
  } finally {
    slot.run = previous;
  }
}
