/**
 * The templates config-db allows in `properties` (`{{.name}}`, `$(.config.spec.replicas)`): here only a dotted path
 * into the config's variables, with optional spaces. Anything else (pipelines, functions, ranges) is refused at save
 * by templateProblem, so a property is never shown with a template left unfilled.
 */

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}|\$\(\s*([^()]*?)\s*\)/g;
const DOTTED_PATH = /^\.[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/;

/** Why the text is not a template this server fills, or null. */
export function templateProblem(text: string): string | null {
  for (const match of text.matchAll(PLACEHOLDER)) {
    const inner = match[1] ?? match[2] ?? '';
    if (!DOTTED_PATH.test(inner)) return `uses '${match[0]}': only a path such as {{.name}} or $(.config.spec.replicas) is filled`;
  }
  return null;
}

function lookup(scope: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = scope;
  for (const segment of path.slice(1).split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function shown(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The text with each placeholder replaced by what its path finds (empty when it finds nothing, as Go templates do). */
export function fillTemplate(text: string, scope: Readonly<Record<string, unknown>>): string {
  return text.replace(PLACEHOLDER, (whole, braces: string | undefined, dollar: string | undefined) => {
    const path = braces ?? dollar ?? '';
    return DOTTED_PATH.test(path) ? shown(lookup(scope, path)) : whole;
  });
}
