import '@/components/test-support/browser-polyfills';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { canarySpecJsonSchema } from '@opsdeck/shared';
import { ObjectTextField } from './object-text-field';

const CANARY_SPEC_SCHEMA = canarySpecJsonSchema();

describe('ObjectTextField', () => {
  it('shows the object as YAML in a code editor named by the label', async () => {
    render(<ObjectTextField label="Labels" value={{ team: 'web' }} onChange={() => undefined} />);
    const editor = await screen.findByRole('textbox', { name: 'Labels' });
    expect(editor).toHaveTextContent('team: web');
    expect(editor).toHaveAccessibleDescription('JSON or YAML');
  });

  it('sends each edit that parses to an object, and keeps the last one while the text does not', async () => {
    const user = userEvent.setup();
    const handleChange = vi.fn();
    render(<ObjectTextField label="Labels" value={{}} onChange={handleChange} />);
    const editor = await screen.findByRole('textbox', { name: 'Labels' });
    await user.click(editor);
    await user.keyboard('env: prod');
    await waitFor(() => expect(handleChange).toHaveBeenLastCalledWith({ env: 'prod' }));
    handleChange.mockClear();
    await user.keyboard('{Enter}- x');
    expect(await screen.findByText('Not a JSON or YAML object: the last valid value is kept')).toBeInTheDocument();
    for (const [value] of handleChange.mock.calls) expect(value).toEqual({ env: 'prod' });
  });

  it('underlines in a canary spec a key the canary spec schema does not know', async () => {
    const { container } = render(
      <ObjectTextField label="Spec" value={{ schedule: '@every 1m', htp: [] }} onChange={() => undefined} schema={CANARY_SPEC_SCHEMA} />,
    );
    await screen.findByRole('textbox', { name: 'Spec' });
    await waitFor(() => expect(container.querySelector('.cm-lintRange-error')).toHaveTextContent('htp'));
  });

  it('is read-only when asked, with the reason as its description', async () => {
    render(<ObjectTextField label="Spec" value={{ a: 1 }} onChange={() => undefined} readOnly hint="Defined outside the UI: read-only here" />);
    const editor = await screen.findByRole('textbox', { name: 'Spec' });
    expect(editor).toHaveAttribute('aria-readonly', 'true');
    expect(editor).toHaveAccessibleDescription('Defined outside the UI: read-only here');
  });
});
