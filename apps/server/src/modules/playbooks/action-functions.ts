import { goTemplateFunctions, goText } from '../../platform/go-template/template-functions';
import type { GoFunction } from '../../platform/go-template/go-template';

/** A playbook template's functions over one run: Go's, gomplate's, and getAction and getLastAction over `actions`. */
export function templateFunctions(actions: Readonly<Record<string, unknown>>, now: () => Date = () => new Date()): Record<string, GoFunction> {
  const names = Object.keys(actions);
  return {
    ...goTemplateFunctions(now),
    getAction: (name) => (Object.hasOwn(actions, goText(name)) ? actions[goText(name)] : {}),
    getLastAction: () => {
      const last = names.at(-1);
      return last === undefined ? {} : actions[last];
    },
  };
}

/** Every name a playbook template may call, for parsing. */
export const TEMPLATE_FUNCTION_NAMES: ReadonlySet<string> = new Set(Object.keys(templateFunctions({})));
