import { isRecord, record } from '../../../platform/json-values';
import { GoTemplateError } from '../../../platform/go-template/go-template';
import { renderGoTemplate } from '../../../platform/go-template/render';
import { JavaScriptError, runSandboxedJavaScript } from '../../../platform/javascript/sandboxed-javascript';
import { evaluateCel } from './scrape-cel';

/** A script that makes more configs than this is refused whole rather than ingested in part. */
export const MAX_SCRIPT_CONFIGS = 100_000;
/** A template script rewrites a whole document, so it gets more steps and output than a check template. */
const SCRIPT_TEMPLATE_STEP_LIMIT = 1_000_000;
const SCRIPT_TEMPLATE_OUTPUT_LIMIT = 50_000_000;
/** A JavaScript transform of one document: a scrape runs in the background, so it may take longer than a check's. */
const SCRIPT_JAVASCRIPT_LIMITS = { timeoutMs: 5_000, memoryBytes: 128 * 1024 * 1024 };

export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/**
 * config-db's transform script: CEL over `config` (one document, or one piece of it once `items` has cut it), a Go
 * template over it (`gotemplate`), or sandboxed JavaScript with `config` as a global (`javascript`), that returns the list of configs to scrape instead, as a list or as its JSON text. Without a script the
 * piece is its own only config. Id, name and type are then read from each config by the entry's JSONPaths.
 */
export function scriptOutput(spec: Record<string, unknown>, piece: unknown): unknown[] {
  const transform = record(spec.transform);
  const expression = transform.expr;
  const template = transform.gotemplate;
  const script = transform.javascript;
  let value: unknown;
  let field: string;
  if (typeof script === 'string' && script.trim() !== '') {
    field = 'transform.javascript';
    try {
      value = runSandboxedJavaScript(script, { config: piece }, SCRIPT_JAVASCRIPT_LIMITS);
    } catch (error) {
      if (error instanceof JavaScriptError) throw new ScriptError(`transform.javascript: ${error.message}`);
      throw error;
    }
  } else if (typeof expression === 'string' && expression.trim() !== '') {
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
