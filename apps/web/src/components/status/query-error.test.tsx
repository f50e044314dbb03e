import '@/components/test-support/browser-polyfills';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '@/lib/api/api-error';
import { QueryError } from './query-error';

const refused = new ApiError(400, {
  code: 'OD_VALIDATION',
  message: 'The request is not valid',
  details: '/timeRange must be a time range',
  hint: 'Use 15m, 1h or 1d',
});

describe('QueryError', () => {
  it("says what could not be loaded with the server's message, details and hint", () => {
    render(<QueryError subject="Checks" error={refused} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Checks could not be loaded: The request is not valid');
    expect(alert).toHaveTextContent('/timeRange must be a time range');
    expect(alert).toHaveTextContent('Use 15m, 1h or 1d');
  });

  it('shows the message alone when no subject is given, and a plain error by its own message', () => {
    render(<QueryError error={new Error('Network down')} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/^Network down$/);
  });

  it('offers Try again only with a retry, and calls it when pressed', async () => {
    const retry = vi.fn();
    const { unmount } = render(<QueryError error={refused} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();
    render(<QueryError error={refused} onRetry={retry} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
