import { celToText } from '../cel/cel-values';
import { executeGoTemplate, GoTemplateError, isMethodValue, NO_VALUE, parseGoTemplate, type DollarActions, type GoFunction } from './go-template';
import { goTemplateFunctions } from './template-functions';

const FUNCTIONS = goTemplateFunctions();
const FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(FUNCTIONS));

/** A printed value as checks and scrapers show it: maps and lists as JSON (CEL's text), nothing as `<no value>`. */
function printed(value: unknown): string {
  if (value === NO_VALUE || value === null || value === undefined) return '<no value>';
  if (isMethodValue(value)) return value.print();
  return celToText(value);
}

/**
 * Renders a Go template (canary-checker's `display.template`, config-db's `transform.gotemplate`) with the evaluator
 * playbooks use (if, range, with, variables, gomplate functions; ADR 0070, 0071), within a step and output budget;
 * throws GoTemplateError for what Go refuses.
 */
export function renderGoTemplate(
  template: string,
  data: unknown,
  options: {
    maxSteps: number;
    maxOutput: number;
    /** Functions of this one rendering beside the fixed table (a check's `last_result`). */
    functions?: Readonly<Record<string, GoFunction>>;
    /** How each printed value's text is written (a marker for value placement, instead of the text itself). */
    output?: (text: string) => string;
    /** `$( )` actions beside `{{ }}` (Mission Control's notifications render both); none unless asked. */
    dollar?: DollarActions;
  },
): string {
  const { functions: extra, output, dollar = 'none', ...limits } = options;
  const functions = extra === undefined ? FUNCTIONS : { ...FUNCTIONS, ...extra };
  const names = extra === undefined ? FUNCTION_NAMES : new Set(Object.keys(functions));
  return executeGoTemplate(parseGoTemplate(template, names, { dollar }), data, { functions, output: output === undefined ? printed : (value) => output(printed(value)), ...limits });
}

/** Why a template does not parse (an unknown function, `define`, a syntax error), or null; `extra` names functions added at render time. */
export function goTemplateProblem(template: string, extra: readonly string[] = [], dollar: DollarActions = 'none'): string | null {
  try {
    parseGoTemplate(template, extra.length === 0 ? FUNCTION_NAMES : new Set([...FUNCTION_NAMES, ...extra]), { dollar });
    return null;
  } catch (error) {
    if (error instanceof GoTemplateError) return error.message;
    throw error;
  }
}
