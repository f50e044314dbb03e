import { mayHoldGoActions } from '../../platform/go-template/go-template';
import { renderGoTemplate } from '../../platform/go-template/render';
import { markValue, placeInSql, type SqlDialect } from '../../platform/value-placement';
import { NO_LAST_RESULT, type LastResult } from './last-result';

/** Evaluation steps of one check template: a check runs often, so it gets less than a playbook action. */
const CHECK_TEMPLATE_STEP_LIMIT = 50_000;
/** Longest rendered display, test or transform, in characters. */
const CHECK_TEMPLATE_OUTPUT_LIMIT = 1_000_000;

/** Functions a check template has beside the fixed table: canary-checker's contextual `last_result`. */
export const CHECK_TEMPLATE_FUNCTIONS: readonly string[] = ['last_result'];

function functionsFor(lastResult: LastResult | undefined) {
  const last = lastResult ?? NO_LAST_RESULT;
  return { last_result: () => last };
}

/**
 * Renders a check's `display.template`, `test.template` or `transform.template`, an http body with `templateBody`, or
 * a folder's `filter.since`; throws GoTemplateError for what Go refuses.
 */
export function renderCheckTemplate(template: string, data: unknown, lastResult?: LastResult): string {
  return renderGoTemplate(template, data, { maxSteps: CHECK_TEMPLATE_STEP_LIMIT, maxOutput: CHECK_TEMPLATE_OUTPUT_LIMIT, functions: functionsFor(lastResult) });
}

/**
 * A postgres or mysql check's query as a template, as canary-checker renders it: every printed value (from
 * `last_result`, the canary or the check) is bound as a parameter rather than pasted, so a value can never change the
 * statement (ADR 0071's placement: inside a string literal it becomes a concatenation, where a name stands it is
 * refused). A query without `{{` (or a `# gotemplate:` header) is left as written.
 */
export function renderCheckQuery(query: string, data: unknown, lastResult: LastResult | undefined, dialect: SqlDialect): { query: string; args: string[] } {
  if (!mayHoldGoActions(query)) return { query, args: [] };
  const marked = renderGoTemplate(query, data, { maxSteps: CHECK_TEMPLATE_STEP_LIMIT, maxOutput: CHECK_TEMPLATE_OUTPUT_LIMIT, functions: functionsFor(lastResult), output: markValue });
  return placeInSql(marked, dialect, []);
}
