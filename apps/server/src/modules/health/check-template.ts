import { renderGoTemplate } from '../../platform/go-template/render';

/** Evaluation steps of one check template: a check runs often, so it gets less than a playbook action. */
const CHECK_TEMPLATE_STEP_LIMIT = 50_000;
/** Longest rendered display, test or transform, in characters. */
const CHECK_TEMPLATE_OUTPUT_LIMIT = 1_000_000;

/** Renders a check's `display.template`, `test.template` or `transform.template`; throws GoTemplateError for what Go refuses. */
export function renderCheckTemplate(template: string, data: unknown): string {
  return renderGoTemplate(template, data, { maxSteps: CHECK_TEMPLATE_STEP_LIMIT, maxOutput: CHECK_TEMPLATE_OUTPUT_LIMIT });
}
