import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { scrapeConfigJsonSchema } from '@opsdeck/shared';
import { CodeEditor } from '@/components/code-editor/code-editor';
import { FormActions } from '@/components/form-actions/form-actions';
import { TextField } from '@/components/forms/text-field';
import { objectToText, parseObjectText } from '@/lib/object-text/object-text';
import { useStateWithLatest } from '@/lib/use-state-with-latest';
import type { SaveProblem } from '../api/save-problem';
import type { ScraperInput } from '../api/save-scraper';
import { EXAMPLE_SPEC, requiredFieldsSummary, specHints } from '../scraper-spec';

const NOT_AN_OBJECT = 'The spec is not a JSON or YAML object; fix it before saving.';
const EMPTY_SPEC = 'The spec is empty: list at least one source, such as file.';

interface NameValues {
  name: string;
}

export interface ScraperFormProps {
  /** The stored scraper when editing; without one the form creates a scraper from the example spec. */
  scraper?: { name: string; spec: Record<string, unknown> };
  /** Editing is offered: write permission and a scraper made in the UI. */
  editable: boolean;
  isSaving: boolean;
  /** What the server refused the last save for; the text that caused it stays in the editor. */
  problem: SaveProblem | null;
  onSubmit: (input: ScraperInput) => void;
  onDelete?: () => void;
  onCancel?: () => void;
}

/** A scraper's name and its spec in a YAML editor checked against the scrape-config schema (spec 002 §2.1). */
export function ScraperForm({ scraper, editable, isSaving, problem, onSubmit, onDelete, onCancel }: ScraperFormProps) {
  const isEditing = scraper !== undefined;
  const { control, handleSubmit } = useForm<NameValues>({ mode: 'onTouched', defaultValues: { name: scraper?.name ?? '' } });
  const [text, setText, latestText] = useStateWithLatest(() => (scraper === undefined ? EXAMPLE_SPEC : objectToText(scraper.spec)));
  const [specError, setSpecError] = useState<string | null>(null);
  const id = useId();
  const parsed = useMemo(() => parseObjectText(text), [text]);
  const hints = useMemo(() => (parsed === null ? [] : specHints(parsed)), [parsed]);

  const submit = handleSubmit(({ name }) => {
    const spec = parseObjectText(latestText());
    if (spec === null) {
      setSpecError(NOT_AN_OBJECT);
      return;
    }
    if (Object.keys(spec).length === 0) {
      setSpecError(EMPTY_SPEC);
      return;
    }
    setSpecError(null);
    onSubmit({ name: name.trim(), spec });
  });

  const describedBy = [`${id}-hint`, hints.length > 0 ? `${id}-required` : null, problem !== null || specError !== null ? `${id}-problem` : null]
    .filter((part) => part !== null)
    .join(' ');

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Scraper spec" className="flex min-w-0 flex-col gap-3">
      <TextField control={control} name="name" label="Name" required disabled={isEditing || isSaving} />
      <div className="flex min-w-0 flex-col gap-1">
        <span id={`${id}-label`} className="text-sm font-medium text-gray-800">
          Spec
        </span>
        <CodeEditor
          language="yaml"
          value={text}
          onChange={setText}
          readOnly={!editable}
          rows={16}
          schema={scrapeConfigJsonSchema}
          invalid={parsed === null || problem !== null || specError !== null}
          ariaLabelledBy={`${id}-label`}
          ariaDescribedBy={describedBy}
        />
        <p id={`${id}-hint`} className="text-xs text-gray-500">
          {editable ? 'YAML or JSON; a Mission Control ScrapeConfig may be pasted as it is. A relative path (configs/*.yaml) is read under each of the server’s scrape roots; an absolute one must lie inside them.' : 'Read-only'}
        </p>
        {editable && hints.length > 0 && (
          <ul id={`${id}-required`} aria-label="Missing required fields" className="flex flex-col gap-0.5 text-xs text-amber-800">
            {hints.map((hint) => (
              <li key={hint.where} className="break-words">
                <span className="font-mono">{hint.where}</span>: {hint.message}
              </li>
            ))}
          </ul>
        )}
        {(problem !== null || specError !== null) && (
          <div id={`${id}-problem`} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
            <p className="break-words">{specError ?? problem?.message}</p>
            {specError === null && problem?.details && <p className="mt-1 font-mono text-xs break-words text-red-800">{problem.details}</p>}
          </div>
        )}
        {editable && (
          <details className="text-xs text-gray-600">
            <summary className="cursor-pointer focus-visible:outline-2 focus-visible:outline-blue-500">Required fields per kind</summary>
            <ul className="mt-1 flex flex-col gap-0.5 font-mono">
              {requiredFieldsSummary().map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        )}
      </div>
      {editable && (
        <FormActions isEditing={isEditing} isSaving={isSaving} onDelete={onDelete} onCancel={onCancel} />
      )}
    </form>
  );
}
