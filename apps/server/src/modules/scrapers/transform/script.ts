import { isRecord, record } from '../../../platform/json-values';
import { evaluateCel } from './scrape-cel';

/** A script that makes more configs than this is refused whole rather than ingested in part. */
export const MAX_SCRIPT_CONFIGS = 100_000;

export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/**
 * config-db's transform script: CEL over `config` (one document, or one piece of it once `items` has cut it) that
 * returns the list of configs to scrape instead, as a list or as its JSON text (`….toJSON()`). Without a script the
 * piece is its own only config. Id, name and type are then read from each config by the entry's JSONPaths.
 */
export function scriptOutput(spec: Record<string, unknown>, piece: unknown): unknown[] {
  const expression = record(spec.transform).expr;
  if (typeof expression !== 'string' || expression.trim() === '') return [piece];
  let value = evaluateCel('script', expression, { config: piece });
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new ScriptError('transform.expr returned text that is not JSON; return a list of configs, or its toJSON()');
    }
  }
  const configs = Array.isArray(value) ? value : isRecord(value) ? [value] : null;
  if (configs === null) throw new ScriptError(`transform.expr returned ${value === null ? 'null' : typeof value}; return a list of configs`);
  if (configs.length > MAX_SCRIPT_CONFIGS) throw new ScriptError(`transform.expr returned ${configs.length} configs, more than ${MAX_SCRIPT_CONFIGS}`);
  return configs;
}
