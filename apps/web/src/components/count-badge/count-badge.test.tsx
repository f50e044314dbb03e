import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { CountBadge } from './count-badge';

describe('CountBadge', () => {
  it('shows small counts as they are, without highlight', () => {
    render(<CountBadge count={499} />);
    expect(screen.getByText('499')).toHaveAttribute('data-highlighted', 'false');
  });

  it('highlights 500 or more', () => {
    render(<CountBadge count={500} />);
    expect(screen.getByText('500')).toHaveAttribute('data-highlighted', 'true');
  });

  it('shortens counts above 999 to k+', () => {
    render(<CountBadge count={1500} label="changes" />);
    expect(screen.getByLabelText('1500 changes')).toHaveTextContent('1k+');
  });
});
