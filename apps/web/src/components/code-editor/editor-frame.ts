import { clsx } from 'clsx';
import type { CodeLanguage, JsonSchema } from './text-diagnostics';

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: CodeLanguage;
  /** Underlines what the schema refuses, besides syntax errors. */
  schema?: JsonSchema;
  readOnly?: boolean;
  /** The id of the visible label; give this or `ariaLabel`. */
  ariaLabelledBy?: string;
  ariaLabel?: string;
  ariaDescribedBy?: string;
  /** Height in lines before the editor grows. */
  rows?: number;
  /** Draws the field as refused by the form, as inputClass does. */
  invalid?: boolean;
  /** 1-based line numbers drawn as selected. */
  selectedLines?: readonly number[];
  /**
   * Makes lines selectable: a click on a line number selects it, Shift extends the range, Ctrl or Cmd adds or removes
   * one line; from the keyboard, Enter (with Shift or Ctrl/Cmd likewise) works on the cursor's line.
   */
  onSelectedLinesChange?: (lines: number[]) => void;
}

const LINE_HEIGHT_PX = 18;
const PADDING_PX = 8;

/** The editor's least height, shared by the editor and the stand-in shown while it loads. */
export function editorMinHeight(rows: number): string {
  return `${rows * LINE_HEIGHT_PX + PADDING_PX}px`;
}

/** The frame paints the background with palette classes, so it follows the app's light or dark theme. */
export function editorFrameClass({ invalid = false, readOnly = false }: Pick<CodeEditorProps, 'invalid' | 'readOnly'>): string {
  return clsx(
    // A border rather than an inset ring: CodeMirror paints its own background over anything inset.
    'w-full overflow-hidden rounded-md border font-mono text-xs focus-within:outline-2 focus-within:outline-blue-500',
    invalid ? 'border-red-400' : 'border-gray-300',
    readOnly ? 'bg-gray-50 text-gray-900' : 'bg-white text-gray-900',
  );
}
