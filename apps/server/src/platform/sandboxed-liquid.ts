import { Liquid, type FS } from 'liquidjs';

/**
 * The Liquid engine every user-written template runs in (playbook actions, notification titles and bodies): no files,
 * no prototype chain, bounded in size, time and memory, so a template reads only the context it is given and cannot
 * stall a worker.
 */

/** Longest template text parsed, in characters. */
const PARSE_LIMIT = 500_000;
/** Wall time of one render. */
const RENDER_LIMIT_MS = 1000;
/** Liquid's allocation units (range sizes, string and array lengths) for one render. */
const MEMORY_LIMIT = 10_000_000;

/** Objects print as JSON rather than '[object Object]', so a structured value is useful as is. */
export function printTemplateValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `subject` names whose templates they are in the error a file read gets, e.g. 'Playbook templates'. */
export function sandboxedLiquid(subject: string): Liquid {
  const refusal = `${subject} cannot read files`;
  const refusingFs: FS = {
    exists: () => Promise.resolve(false),
    existsSync: () => false,
    readFile: () => Promise.reject(new Error(refusal)),
    readFileSync: () => {
      throw new Error(refusal);
    },
    resolve: (_directory, file) => file,
  };
  const liquid = new Liquid({
    fs: refusingFs,
    relativeReference: false,
    dynamicPartials: false,
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    jsTruthy: false,
    outputEscape: printTemplateValue,
    parseLimit: PARSE_LIMIT,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
  // The tags that read other templates are the only way out to files; without them a template sees only its context.
  delete liquid.tags.include;
  delete liquid.tags.render;
  delete liquid.tags.layout;
  return liquid;
}
