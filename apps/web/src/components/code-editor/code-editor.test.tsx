import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '@/components/test-support/browser-polyfills';
import { CodeEditor, type JsonSchema } from './code-editor';

/** Longer than the editor waits after a change before it checks the text. */
const PAST_LINT_DELAY_MS = 1_000;

const SCHEMA: JsonSchema = { type: 'object', properties: { threshold: { type: 'integer', minimum: 0 } }, additionalProperties: false };

function LabelledEditor({ initial = '', onChange = () => undefined, schema, readOnly }: { initial?: string; onChange?: (text: string) => void; schema?: JsonSchema; readOnly?: boolean }) {
  const [text, setText] = useState(initial);
  const handleChange = (next: string) => {
    setText(next);
    onChange(next);
  };
  return (
    <div>
      <span id="spec-label">Spec</span>
      <CodeEditor language="yaml" value={text} onChange={handleChange} schema={schema} readOnly={readOnly} ariaLabelledBy="spec-label" />
      <button type="button">Save</button>
    </div>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('CodeEditor', () => {
  it('shows the text while the editor loads, then an editable text box named by its label', async () => {
    render(<LabelledEditor initial="name: shop" />);
    const editor = await screen.findByRole('textbox', { name: 'Spec' });
    expect(editor).toHaveAttribute('contenteditable', 'true');
    expect(editor).toHaveTextContent('name: shop');
  });

  it('reports what is typed', async () => {
    const user = userEvent.setup();
    const handleChange = vi.fn();
    render(<LabelledEditor onChange={handleChange} />);
    const editor = await screen.findByRole('textbox', { name: 'Spec' });
    await user.click(editor);
    await user.keyboard('a: 1');
    await waitFor(() => expect(handleChange).toHaveBeenLastCalledWith('a: 1'));
  });

  it('lets Tab move on to the next control instead of indenting', async () => {
    const user = userEvent.setup();
    render(<LabelledEditor initial="a: 1" />);
    const editor = await screen.findByRole('textbox', { name: 'Spec' });
    await user.click(editor);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
  });

  it('underlines what the schema refuses', async () => {
    const { container } = render(<LabelledEditor initial={'threshold: -1\n'} schema={SCHEMA} />);
    await screen.findByRole('textbox', { name: 'Spec' });
    await waitFor(() => expect(container.querySelector('.cm-lintRange-error')).toHaveTextContent('-1'));
  });

  it('underlines nothing in a text the schema accepts', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { container } = render(<LabelledEditor initial={'threshold: 3\n'} schema={SCHEMA} />);
    await screen.findByRole('textbox', { name: 'Spec' });
    await act(() => vi.advanceTimersByTimeAsync(PAST_LINT_DELAY_MS));
    expect(container.querySelector('.cm-lintRange-error')).toBeNull();
  });

  it('marks a read-only editor as such and ignores typing', async () => {
    const user = userEvent.setup();
    const handleChange = vi.fn();
    render(<LabelledEditor initial="a: 1" onChange={handleChange} readOnly />);
    const editor = await screen.findByRole('textbox', { name: 'Spec' });
    expect(editor).toHaveAttribute('aria-readonly', 'true');
    await user.click(editor);
    await user.keyboard('x');
    expect(handleChange).not.toHaveBeenCalled();
  });

  it('selects lines from their numbers: a click picks one, Shift extends, and the chosen lines are highlighted', async () => {
    const handleSelect = vi.fn<(lines: number[]) => void>();
    function SelectableEditor() {
      const [selected, setSelected] = useState<number[]>([]);
      return (
        <CodeEditor
          language="yaml"
          value={'a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n'}
          readOnly
          ariaLabel="Config"
          selectedLines={selected}
          onSelectedLinesChange={(lines) => {
            handleSelect(lines);
            setSelected(lines);
          }}
        />
      );
    }
    const { container } = render(<SelectableEditor />);
    await screen.findByRole('textbox', { name: 'Config' });
    const lineNumber = (line: number) => {
      const element = [...container.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].find((candidate) => candidate.textContent === String(line));
      if (element === undefined) throw new Error(`no line number ${line}`);
      return element;
    };
    fireEvent.mouseDown(lineNumber(2));
    expect(handleSelect).toHaveBeenLastCalledWith([2]);
    fireEvent.mouseDown(lineNumber(4), { shiftKey: true });
    expect(handleSelect).toHaveBeenLastCalledWith([2, 3, 4]);
    await waitFor(() => expect([...container.querySelectorAll('.cm-line[data-selected]')].map((line) => line.textContent)).toEqual(['b: 2', 'c: 3', 'd: 4']));
  });

  it('keeps plain line numbers and highlights no line when lines are not selectable', async () => {
    const { container } = render(<LabelledEditor initial={'a: 1\nb: 2'} readOnly />);
    await screen.findByRole('textbox', { name: 'Spec' });
    expect(container.querySelector('.cm-selectedLine')).toBeNull();
    expect(container.querySelector('.cm-lineNumbers')).not.toBeNull();
  });
});
