import { celToText } from '../cel/cel-values';
import { executeGoTemplate, GoTemplateError, isMethodValue, NO_VALUE, parseGoTemplate } from './go-template';
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
export function renderGoTemplate(template: string, data: unknown, limits: { maxSteps: number; maxOutput: number }): string {
  return executeGoTemplate(parseGoTemplate(template, FUNCTION_NAMES), data, { functions: FUNCTIONS, output: printed, ...limits });
}

/** Why a template does not parse (an unknown function, `define`, a syntax error), or null. */
export function goTemplateProblem(template: string): string | null {
  try {
    parseGoTemplate(template, FUNCTION_NAMES);
    return null;
  } catch (error) {
    if (error instanceof GoTemplateError) return error.message;
    throw error;
  }
}
