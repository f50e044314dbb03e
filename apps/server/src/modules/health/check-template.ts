import { celToText } from '../../platform/cel/cel-values';
import { executeGoTemplate, isMethodValue, NO_VALUE, parseGoTemplate } from '../../platform/go-template/go-template';
import { goTemplateFunctions } from '../../platform/go-template/template-functions';

/** Evaluation steps of one check template: a check runs often, so it gets less than a playbook action. */
const CHECK_TEMPLATE_STEP_LIMIT = 50_000;
/** Longest rendered display, test or transform, in characters. */
const CHECK_TEMPLATE_OUTPUT_LIMIT = 1_000_000;

const FUNCTIONS = goTemplateFunctions();
const FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(FUNCTIONS));

/** A printed value as checks have always shown it: maps and lists as JSON (CEL's text), nothing as `<no value>`. */
function printed(value: unknown): string {
  if (value === NO_VALUE || value === null || value === undefined) return '<no value>';
  if (isMethodValue(value)) return value.print();
  return celToText(value);
}

/**
 * Renders a check's `display.template`, `test.template` or `transform.template` with the Go-template evaluator
 * playbooks use (if, range, with, variables, gomplate functions; ADR 0070, 0071); throws GoTemplateError for what Go
 * refuses.
 */
export function renderCheckTemplate(template: string, data: unknown): string {
  return executeGoTemplate(parseGoTemplate(template, FUNCTION_NAMES), data, {
    functions: FUNCTIONS,
    output: printed,
    maxSteps: CHECK_TEMPLATE_STEP_LIMIT,
    maxOutput: CHECK_TEMPLATE_OUTPUT_LIMIT,
  });
}
