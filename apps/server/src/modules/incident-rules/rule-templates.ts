import { TEXT_LIMITS } from '@opsdeck/shared';
import { printTemplateValue, sandboxedLiquid } from '../../platform/sandboxed-liquid';

/** Incident titles and descriptions are Liquid over the source, in the sandbox every user template runs in. */
const liquid = sandboxedLiquid('Incident rule templates');

/** Longest rendered title and description, in characters (the incident columns are text, but a title is a line). */
export const TITLE_LIMIT = TEXT_LIMITS.short;
export const DESCRIPTION_LIMIT = 10_000;

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Why the text is not a template, or null; parse only. */
export function checkRuleTemplate(text: string): string | null {
  try {
    liquid.parse(text);
    return null;
  } catch (error) {
    return firstLine(error);
  }
}

/** Renders a title or description, cut to `limit`; a template that fails renders as its own text. */
export async function renderRuleTemplate(text: string, scope: Readonly<Record<string, unknown>>, limit: number): Promise<string> {
  let rendered = text;
  if (text.includes('{')) {
    try {
      rendered = printTemplateValue(await liquid.parseAndRender(text, scope));
    } catch {
      rendered = text;
    }
  }
  const trimmed = rendered.trim();
  return trimmed.length > limit ? `${trimmed.slice(0, limit - 1)}…` : trimmed;
}
