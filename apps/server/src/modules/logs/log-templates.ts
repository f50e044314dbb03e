import { escapePath } from 'tinyglobby';
import { sandboxedLiquid } from '../../platform/sandboxed-liquid';
import { logErrors } from './log-errors';

const liquid = sandboxedLiquid('Log backend templates');

/** What a backend's templates see of the component or configuration item whose logs are asked for. */
export interface LogSubjectContext {
  kind: 'component' | 'config';
  id: string;
  name: string;
  type: string;
  /** The component's labels, or the item's labels with its tags over them. */
  labels: Record<string, string>;
  /** The item's tags; {} for a component. */
  tags: Record<string, string>;
}

/** Why a template text does not parse, or null. */
export function templateProblem(text: string): string | null {
  try {
    liquid.parse(text);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] ?? 'does not parse' : 'does not parse';
  }
}

/** Quotes a value for a LogQL string literal ("…"), so a label value cannot close the literal and add matchers. */
export function escapeLogQl(value: string): string {
  return value.replace(/[\\"]/g, (char) => `\\${char}`).replace(/\n/g, '\\n');
}

/** Escapes every character the Lucene query-string syntax gives a meaning, inside or outside quotes. */
export function escapeQueryString(value: string): string {
  return value.replace(/[+\-=&|><!(){}[\]^"~*?:\\/]/g, (char) => `\\${char}`);
}

/** Globs in a value become literal characters, so a component named `*` reads its own file rather than every file. */
export function escapeGlob(value: string): string {
  return escapePath(value);
}

function escapedContext(subject: LogSubjectContext, escape: (value: string) => string): Record<string, unknown> {
  const map = (values: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(values).map(([key, value]) => [key, escape(value)]));
  return {
    kind: subject.kind,
    id: subject.id,
    name: escape(subject.name),
    type: escape(subject.type),
    labels: map(subject.labels),
    tags: map(subject.tags),
  };
}

/**
 * Renders one of a backend's templates for a subject, each value escaped for where it lands (a LogQL literal, a query
 * string, a glob); a template that fails to render is a coded error naming the field, never a 500.
 */
export async function renderLogTemplate(field: string, text: string, subject: LogSubjectContext, escape: (value: string) => string = (value) => value): Promise<string> {
  if (!text.includes('{{') && !text.includes('{%')) return text;
  try {
    const rendered: unknown = await liquid.parseAndRender(text, escapedContext(subject, escape));
    return typeof rendered === 'string' ? rendered.trim() : String(rendered);
  } catch (error) {
    throw logErrors.template(field, error instanceof Error ? error.message.split('\n')[0] ?? 'does not render' : 'does not render');
  }
}
