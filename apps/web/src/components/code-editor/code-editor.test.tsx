import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '@/components/test-support/browser-polyfills';
import { CodeEditor, type JsonSchema } from './code-editor';

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
    const { container } = render(<LabelledEditor initial={'threshold: 3\n'} schema={SCHEMA} />);
    await screen.findByRole('textbox', { name: 'Spec' });
    await new Promise((resolve) => setTimeout(resolve, 500));
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
});
