import { useEffect, useMemo, useRef } from 'react';
import CodeMirror, { GutterMarker, Prec, RangeSet, RangeSetBuilder, gutterLineClass, keymap, lineNumbers, type Extension, type Text } from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter } from '@codemirror/lint';
import { Decoration, EditorView, type BlockInfo } from '@codemirror/view';
import { useTheme } from '@/lib/theme/theme';
import { editorFrameClass, editorMinHeight, type CodeEditorProps } from './editor-frame';
import { lineClickMode, nextLineSelection, type LineClickMode } from './line-selection';
import { schemaCheck, textDiagnostics } from './text-diagnostics';

const LINT_DELAY_MS = 300;

/**
 * The app's field look: the frame around the editor draws the ring, the focus outline and the background (light or
 * dark with the app), CodeMirror none of its own. Highest precedence, so it wins over the light or one-dark theme's
 * own background; the selected-line colours are theme variables from app/styles.css.
 */
const FIELD_THEME = Prec.highest(
  EditorView.theme({
    '&': { fontSize: '12px', backgroundColor: 'transparent' },
    '&.cm-focused': { outline: 'none' },
    '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '18px' },
    '.cm-gutters': { backgroundColor: 'transparent', borderRight: 'none' },
    '.cm-selectedLine': { backgroundColor: 'var(--od-selected-line)' },
    '.cm-selectedLineGutter': { backgroundColor: 'var(--od-selected-gutter)', color: 'var(--od-selected-gutter-text)', fontWeight: '600' },
  }),
);

const SELECTABLE_THEME = EditorView.theme({ '.cm-lineNumbers .cm-gutterElement': { cursor: 'pointer', userSelect: 'none' } });

const SELECTED_LINE = Decoration.line({ class: 'cm-selectedLine', attributes: { 'data-selected': 'true' } });

class SelectedGutterMarker extends GutterMarker {
  override elementClass = 'cm-selectedLineGutter';
}
const SELECTED_GUTTER = new SelectedGutterMarker();

type ContentAttributeProps = Pick<CodeEditorProps, 'ariaLabelledBy' | 'ariaLabel' | 'ariaDescribedBy' | 'readOnly'>;

function contentAttributes({ ariaLabelledBy, ariaLabel, ariaDescribedBy, readOnly }: ContentAttributeProps): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (ariaLabelledBy !== undefined) attributes['aria-labelledby'] = ariaLabelledBy;
  if (ariaLabel !== undefined) attributes['aria-label'] = ariaLabel;
  if (ariaDescribedBy !== undefined) attributes['aria-describedby'] = ariaDescribedBy;
  if (readOnly === true) attributes['aria-readonly'] = 'true';
  return attributes;
}

/** The selected lines that exist in the document, ascending, as selection highlights read them. */
function linesInDocument(doc: Text, lines: readonly number[]): number[] {
  return [...new Set(lines)].filter((line) => Number.isInteger(line) && line >= 1 && line <= doc.lines).sort((a, b) => a - b);
}

function selectedLineHighlight(lines: readonly number[]): Extension {
  return [
    EditorView.decorations.of((view) => {
      const builder = new RangeSetBuilder<Decoration>();
      for (const line of linesInDocument(view.state.doc, lines)) {
        const from = view.state.doc.line(line).from;
        builder.add(from, from, SELECTED_LINE);
      }
      return builder.finish();
    }),
    gutterLineClass.compute(['doc'], (state) => RangeSet.of(linesInDocument(state.doc, lines).map((line) => SELECTED_GUTTER.range(state.doc.line(line).from)))),
  ];
}

/**
 * The line whose number was clicked. The gutter element carries the number it shows, which stays right even before
 * CodeMirror has measured line heights; the block under the pointer answers otherwise.
 */
function clickedLine(view: EditorView, block: BlockInfo, event: Event): number {
  const element = event.target instanceof Element ? event.target.closest('.cm-gutterElement') : null;
  const shown = Number(element?.textContent ?? '');
  return Number.isInteger(shown) && shown >= 1 && shown <= view.state.doc.lines ? shown : view.state.doc.lineAt(block.from).number;
}

function lineSelection(select: (line: number, mode: LineClickMode) => void): Extension {
  const atCursor = (mode: LineClickMode) => (view: EditorView) => {
    select(view.state.doc.lineAt(view.state.selection.main.head).number, mode);
    return true;
  };
  return [
    lineNumbers({
      domEventHandlers: {
        mousedown: (view, block, event) => {
          if (!(event instanceof MouseEvent) || event.button !== 0) return false;
          select(clickedLine(view, block, event), lineClickMode(event));
          event.preventDefault();
          return true;
        },
      },
    }),
    Prec.high(keymap.of([{ key: 'Enter', run: atCursor('only'), shift: atCursor('range') }, { key: 'Mod-Enter', run: atCursor('toggle') }])),
    SELECTABLE_THEME,
  ];
}

/** CodeEditor's implementation, loaded lazily (see code-editor.tsx). */
export function CodeMirrorEditor(props: CodeEditorProps) {
  const { value, onChange, language, schema, readOnly = false, ariaLabelledBy, ariaLabel, ariaDescribedBy, rows = 6, selectedLines, onSelectedLinesChange } = props;
  // One-dark's syntax colours are made for a dark background, the light theme's for a light one.
  const { theme } = useTheme();
  const selectable = onSelectedLinesChange !== undefined;

  // The editor's handlers are made once; they read the latest selection and callback from here.
  const latest = useRef({ selectedLines, onSelectedLinesChange });
  useEffect(() => {
    latest.current = { selectedLines, onSelectedLinesChange };
  }, [selectedLines, onSelectedLinesChange]);
  const anchor = useRef<number | null>(null);

  const extensions = useMemo(() => {
    const check = schema === undefined ? undefined : schemaCheck(schema);
    const select = (line: number, mode: LineClickMode) => {
      const current = latest.current;
      current.onSelectedLinesChange?.(nextLineSelection(current.selectedLines ?? [], line, anchor.current, mode));
      // Shift extends from where the range began, so only the other clicks move the anchor.
      if (mode !== 'range' || anchor.current === null) anchor.current = line;
    };
    return [
      language === 'json' ? json() : language === 'yaml' ? yaml() : [],
      linter((view) => textDiagnostics(view.state.doc.toString(), language, check), { delay: LINT_DELAY_MS }),
      lintGutter(),
      EditorView.contentAttributes.of(contentAttributes({ ariaLabelledBy, ariaLabel, ariaDescribedBy, readOnly })),
      EditorView.lineWrapping,
      FIELD_THEME,
      selectable ? lineSelection(select) : [],
    ];
  }, [language, schema, ariaLabelledBy, ariaLabel, ariaDescribedBy, readOnly, selectable]);

  // A string key keeps the highlight from being rebuilt when the caller passes an equal new array.
  const selectionKey = (selectedLines ?? []).join(',');
  const highlight = useMemo(() => (selectionKey === '' ? [] : selectedLineHighlight(selectionKey.split(',').map(Number))), [selectionKey]);
  const allExtensions = useMemo(() => [...extensions, highlight], [extensions, highlight]);

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={allExtensions}
      readOnly={readOnly}
      indentWithTab={false}
      basicSetup={{ foldGutter: false, autocompletion: false, lineNumbers: !selectable, highlightActiveLine: !readOnly, highlightActiveLineGutter: !readOnly }}
      theme={theme}
      minHeight={editorMinHeight(rows)}
      className={editorFrameClass(props)}
    />
  );
}
