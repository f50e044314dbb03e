import '@/components/test-support/browser-polyfills';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { NumberField } from './number-field';
import { SelectField } from './select-field';
import { SwitchField } from './switch-field';
import { TextAreaField } from './text-area-field';
import { TextField } from './text-field';

interface Values {
  name: string;
  notes: string;
  port: number | string | null;
  kind: string;
  enabled: boolean;
}

function TestForm({ onSubmit }: { onSubmit: (values: Values) => void }) {
  const { control, handleSubmit } = useForm<Values>({ defaultValues: { name: '', notes: '', port: null, kind: '', enabled: false } });
  return (
    <form onSubmit={handleSubmit(onSubmit)}>
      <TextField control={control} name="name" label="Name" required hint="A unique name" />
      <TextAreaField control={control} name="notes" label="Notes" />
      <NumberField control={control} name="port" label="Port" required />
      <SelectField control={control} name="kind" label="Kind" required options={[{ value: 'http', label: 'HTTP' }, { value: 'tcp', label: 'TCP' }]} />
      <SwitchField control={control} name="enabled" label="Enabled" />
      <button type="submit">Submit</button>
    </form>
  );
}

describe('form fields', () => {
  it("marks empty required fields with 'This field is required' and links the error to the input", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<TestForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const name = screen.getByRole('textbox', { name: /Name/ });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('A unique name This field is required');
    expect(screen.getAllByText('This field is required')).toHaveLength(3);
    expect(screen.getByRole('textbox', { name: 'Notes' })).not.toHaveAttribute('aria-invalid');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("says 'This field must be a number' for text in a number field", async () => {
    const user = userEvent.setup();
    render(<TestForm onSubmit={() => {}} />);
    await user.type(screen.getByRole('textbox', { name: /Port/ }), '80a');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('This field must be a number')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Port/ })).toHaveAccessibleDescription('This field must be a number');
  });

  it('submits typed values, numbers as numbers', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<TestForm onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'web');
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'front door');
    await user.type(screen.getByRole('textbox', { name: /Port/ }), '8080');
    await user.click(screen.getByRole('combobox', { name: /Kind/ }));
    await user.click(await screen.findByRole('option', { name: 'TCP' }));
    await user.click(screen.getByRole('switch', { name: 'Enabled' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ name: 'web', notes: 'front door', port: 8080, kind: 'tcp', enabled: true });
  });
});
