import '@/components/test-support/browser-polyfills';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dropdown } from './dropdown';

type Color = 'red' | 'green' | 'blue';
const options = [
  { value: 'red' as const, label: 'Red' },
  { value: 'green' as const, label: 'Green' },
  { value: 'blue' as const, label: 'Blue', disabled: true },
];

function Harness({ onChange }: { onChange: (value: Color) => void }) {
  const [value, setValue] = useState<Color | undefined>(undefined);
  return (
    <Dropdown<Color>
      label="Colour"
      options={options}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
      placeholder="Pick a colour"
    />
  );
}

describe('Dropdown', () => {
  it('shows the placeholder until something is chosen', () => {
    render(<Harness onChange={() => {}} />);
    expect(screen.getByRole('combobox', { name: 'Colour' })).toHaveTextContent('Pick a colour');
  });

  it('can be opened and chosen from with the keyboard', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    screen.getByRole('combobox', { name: 'Colour' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith('green');
    expect(screen.getByRole('combobox', { name: 'Colour' })).toHaveTextContent('Green');
  });

  it('does not choose disabled options', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Colour' }));
    expect(await screen.findByRole('option', { name: 'Blue' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'Red' }));
    expect(onChange).toHaveBeenCalledWith('red');
  });

  // Role queries over a long list are slow in jsdom; on a busy 2-core machine this test alone can pass the default 5 s.
  it('shows a long menu\'s chosen option when closed and every option once opened', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 150 }, (_, index) => ({ value: `v${index}`, label: `Option ${index}` }));
    function Long() {
      const [value, setValue] = useState<string>('v140');
      return <Dropdown label="Long" options={many} value={value} onChange={setValue} />;
    }
    render(<Long />);
    expect(screen.getByRole('combobox', { name: 'Long' })).toHaveTextContent('Option 140');
    await user.click(screen.getByRole('combobox', { name: 'Long' }));
    expect(await screen.findAllByRole('option')).toHaveLength(150);
    await user.click(screen.getByRole('option', { name: 'Option 7' }));
    expect(screen.getByRole('combobox', { name: 'Long' })).toHaveTextContent('Option 7');
  });
});
