import { goTemplateFunctions, goText } from '../../platform/go-template/template-functions';
import type { GoFunction } from '../../platform/go-template/go-template';
import type { CatalogTraversal } from './catalog-traverse';

/**
 * Mission Control's `last_result`: the result of the action that ran last (`{count, rows}` of an sql action, `{stdout,
 * …}` of an exec one), or an empty map before any has.
 */
export function lastResult(actions: Readonly<Record<string, unknown>>): unknown {
  const last = Object.keys(actions).at(-1);
  const state = last === undefined ? undefined : actions[last];
  const result = typeof state === 'object' && state !== null && 'result' in state ? state.result : undefined;
  return result ?? {};
}

/**
 * A playbook template's functions over one run: Go's, gomplate's, getAction, getLastAction and last_result over
 * `actions`, and catalog_traverse over the run's traversal (none where no run reads the catalog, e.g. a parameter's
 * default, where calling it fails the render).
 */
export function templateFunctions(actions: Readonly<Record<string, unknown>>, now: () => Date = () => new Date(), traversal: CatalogTraversal | null = null): Record<string, GoFunction> {
  const names = Object.keys(actions);
  return {
    ...goTemplateFunctions(now),
    getAction: (name) => (Object.hasOwn(actions, goText(name)) ? actions[goText(name)] : {}),
    getLastAction: () => {
      const last = names.at(-1);
      return last === undefined ? {} : actions[last];
    },
    last_result: () => lastResult(actions),
    catalog_traverse: (...args) => {
      if (traversal === null) throw new Error('catalog_traverse reads the catalog in action fields and spec.env only');
      return traversal.call(args);
    },
  };
}

/** Every name a playbook template may call, for parsing. */
export const TEMPLATE_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(templateFunctions({})));
