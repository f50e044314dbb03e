import { stringify } from 'yaml';
import type { CodeLanguage } from '@/components/code-editor/code-editor';

export interface ConfigContent {
  text: string;
  language: CodeLanguage;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The item's content as its `format` says, indented: YAML for yaml, JSON otherwise. Content stored as text is shown as
 * written, re-indented only when it is JSON. No trailing newline, so the last line number is the last line of text.
 */
export function configContent(config: unknown, format: string | null): ConfigContent {
  const language: CodeLanguage = format?.toLowerCase() === 'yaml' ? 'yaml' : 'json';
  if (config === null || config === undefined) return { text: '', language };
  if (typeof config === 'string') return { text: (language === 'json' ? prettyJson(config) : config).trimEnd(), language };
  return { text: (language === 'yaml' ? stringify(config) : JSON.stringify(config, null, 2)).trimEnd(), language };
}
