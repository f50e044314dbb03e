import { lazy, Suspense } from 'react';
import { clsx } from 'clsx';
import { editorFrameClass, editorMinHeight, type CodeEditorProps } from './editor-frame';

export type { CodeEditorProps } from './editor-frame';
export type { CodeLanguage, JsonSchema } from './text-diagnostics';

// CodeMirror, its languages and the schema validator are a chunk of their own, loaded the first time an editor shows.
const CodeMirrorEditor = lazy(() => import('./code-mirror-editor').then((module) => ({ default: module.CodeMirrorEditor })));

/**
 * A YAML or JSON editor (CodeMirror 6) with syntax and JSON Schema diagnostics in the gutter and under the text. Tab
 * leaves the editor as it leaves any field, so keyboard users are never trapped in it.
 */
export function CodeEditor(props: CodeEditorProps) {
  const { value, rows = 6 } = props;
  return (
    <Suspense
      fallback={
        <pre aria-busy="true" className={clsx(editorFrameClass(props), 'px-2 py-1 whitespace-pre-wrap')} style={{ minHeight: editorMinHeight(rows) }}>
          {value}
        </pre>
      }
    >
      <CodeMirrorEditor {...props} />
    </Suspense>
  );
}
