import '@/components/test-support/browser-polyfills';
import { useRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { useScrollRegion } from './use-scroll-region';

function Box() {
  const ref = useRef<HTMLDivElement>(null);
  const region = useScrollRegion(ref, 'Check history');
  return (
    <div ref={ref} data-testid="box" {...region}>
      content
    </div>
  );
}

const original = {
  scrollHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollHeight'),
  clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
};

function layOut(scrollHeight: number, clientHeight: number): void {
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', { configurable: true, get: () => scrollHeight });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => clientHeight });
}

afterEach(() => {
  for (const [name, descriptor] of Object.entries(original)) {
    if (descriptor !== undefined) Object.defineProperty(HTMLElement.prototype, name, descriptor);
  }
});

describe('useScrollRegion', () => {
  it('makes a box that scrolls a named region the keyboard can reach', () => {
    layOut(800, 200);
    render(<Box />);
    const region = screen.getByRole('region', { name: 'Check history' });
    expect(region).toHaveAttribute('tabindex', '0');
  });

  it('adds no Tab stop to a box whose content fits', () => {
    layOut(200, 200);
    render(<Box />);
    expect(screen.getByTestId('box')).not.toHaveAttribute('tabindex');
    expect(screen.queryByRole('region')).toBeNull();
  });
});
