import { isRecord, record } from '../../../platform/json-values';
import { GoTemplateError } from '../../../platform/go-template/go-template';
import { renderGoTemplate } from '../../../platform/go-template/render';
import { evaluateCel } from './scrape-cel';

/** A script that makes more configs than this is refused whole rather than ingested in part. */
export const MAX_SCRIPT_CONFIGS = 100_000;
/** A template script rewrites a whole document, so it gets more steps and output than a check template. */
const SCRIPT_TEMPLATE_STEP_LIMIT = 1_000_000;
const SCRIPT_TEMPLATE_OUTPUT_LIMIT = 50_000_000;

export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/**
 * config-db's transform script: CEL over `config` (one document, or one piece of it once `items` has cut it), or a Go
 * template over it (`gotemplate`), that returns the list of configs to scrape instead, as a list or as its JSON text. Without a script the
 * piece is its own only config. Id, name and type are then read from each config by the entry's JSONPaths.
 */
export function scriptOutput(spec: Record<string, unknown>, piece: unknown): unknown[] {
  const transform = record(spec.transform);
  const expression = transform.expr;
  const template = transform.gotemplate;
  let value: unknown;
  let field: string;
  if (typeof expression === 'string' && expression.trim() !== '') {
    field = 'transform.expr';
    value = evaluateCel('script', expression, { config: piece });
  } else if (typeof template === 'string' && template.trim() !== '') {
    field = 'transform.gotemplate';
    try {
      value = renderGoTemplate(template, { config: piece }, { maxSteps: SCRIPT_TEMPLATE_STEP_LIMIT, maxOutput: SCRIPT_TEMPLATE_OUTPUT_LIMIT });
    } catch (error) {
      if (error instanceof GoTemplateError) throw new ScriptError(`transform.gotemplate: ${error.message}`);
      throw error;
    }
  } else {
    return [piece];
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new ScriptError(`${field} returned text that is not JSON; return a list of configs${field === 'transform.expr' ? ', or its toJSON()' : ''}`);
    }
  }
  const configs = Array.isArray(value) ? value : isRecord(value) ? [value] : null;
  if (configs === null) throw new ScriptError(`${field} returned ${value === null ? 'null' : typeof value}; return a list of configs`);
  if (configs.length > MAX_SCRIPT_CONFIGS) throw new ScriptError(`${field} returned ${configs.length} configs, more than ${MAX_SCRIPT_CONFIGS}`);
  return configs;
}
