import { useMemo } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { editorFrameClass, editorMinHeight, type CodeEditorProps } from './editor-frame';
import { schemaCheck, textDiagnostics } from './text-diagnostics';

const LINT_DELAY_MS = 300;

/** The app's field look: the frame around the editor draws the ring and the focus outline, CodeMirror none of its own. */
const FIELD_THEME = EditorView.theme({
  '&': { fontSize: '12px', backgroundColor: 'transparent' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '18px' },
  '.cm-gutters': { backgroundColor: 'transparent', borderRight: 'none' },
});

type ContentAttributeProps = Pick<CodeEditorProps, 'ariaLabelledBy' | 'ariaLabel' | 'ariaDescribedBy' | 'readOnly'>;

function contentAttributes({ ariaLabelledBy, ariaLabel, ariaDescribedBy, readOnly }: ContentAttributeProps): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (ariaLabelledBy !== undefined) attributes['aria-labelledby'] = ariaLabelledBy;
  if (ariaLabel !== undefined) attributes['aria-label'] = ariaLabel;
  if (ariaDescribedBy !== undefined) attributes['aria-describedby'] = ariaDescribedBy;
  if (readOnly === true) attributes['aria-readonly'] = 'true';
  return attributes;
}

/** CodeEditor's implementation, loaded lazily (see code-editor.tsx). */
export function CodeMirrorEditor(props: CodeEditorProps) {
  const { value, onChange, language, schema, readOnly = false, ariaLabelledBy, ariaLabel, ariaDescribedBy, rows = 6, theme = 'light' } = props;

  const extensions = useMemo(() => {
    const check = schema === undefined ? undefined : schemaCheck(schema);
    return [
      language === 'json' ? json() : yaml(),
      linter((view) => textDiagnostics(view.state.doc.toString(), language, check), { delay: LINT_DELAY_MS }),
      lintGutter(),
      EditorView.contentAttributes.of(contentAttributes({ ariaLabelledBy, ariaLabel, ariaDescribedBy, readOnly })),
      EditorView.lineWrapping,
      FIELD_THEME,
    ];
  }, [language, schema, ariaLabelledBy, ariaLabel, ariaDescribedBy, readOnly]);

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      readOnly={readOnly}
      indentWithTab={false}
      basicSetup={{ foldGutter: false, autocompletion: false, highlightActiveLine: !readOnly, highlightActiveLineGutter: !readOnly }}
      theme={theme}
      minHeight={editorMinHeight(rows)}
      className={editorFrameClass(props)}
    />
  );
}
