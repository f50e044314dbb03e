import { useId, useState } from 'react';
import { CodeEditor, type JsonSchema } from '@/components/code-editor/code-editor';
import { objectToText, parseObjectText } from '@/lib/object-text/object-text';

export interface ObjectTextFieldProps {
  label: string;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  readOnly?: boolean;
  rows?: number;
  hint?: string;
  /** What the object must look like; the editor underlines what it refuses. Pass a stable object (a module constant). */
  schema?: JsonSchema;
  /** Told on every edit whether the text fails to parse to an object, for a form that holds its submit back meanwhile. */
  onInvalidChange?: (invalid: boolean) => void;
}

/**
 * A JSON or YAML editor for an object (labels, spec). Text that does not parse to an object is kept on screen but
 * ignored, so the last good value is what gets saved (spec 002 §2.2).
 */
export function ObjectTextField({ label, value, onChange, readOnly, rows = 6, hint, schema, onInvalidChange }: ObjectTextFieldProps) {
  const [text, setText] = useState(() => objectToText(value));
  const id = useId();
  const invalid = parseObjectText(text) === null;

  const handleChange = (next: string) => {
    setText(next);
    const parsed = parseObjectText(next);
    onInvalidChange?.(parsed === null);
    if (parsed !== null) onChange(parsed);
  };

  return (
    <div className="flex flex-col gap-1">
      <span id={`${id}-label`} className="text-sm font-medium text-gray-800">
        {label}
      </span>
      <CodeEditor
        language="yaml"
        value={text}
        onChange={handleChange}
        readOnly={readOnly}
        rows={rows}
        schema={schema}
        invalid={invalid}
        ariaLabelledBy={`${id}-label`}
        ariaDescribedBy={`${id}-hint`}
      />
      <p id={`${id}-hint`} className={invalid ? 'text-xs text-amber-700' : 'text-xs text-gray-500'}>
        {invalid ? 'Not a JSON or YAML object: the last valid value is kept' : (hint ?? 'JSON or YAML')}
      </p>
    </div>
  );
}
