import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { useRouteFocus } from './use-route-focus';

function Page({ path, heading }: { path: string; heading: string }) {
  useRouteFocus(path);
  return (
    <>
      <button type="button">Search…</button>
      <main id="main">
        <h1>{heading}</h1>
        <input aria-label="Filter" />
      </main>
    </>
  );
}

describe('useRouteFocus', () => {
  it("moves the focus to the new page's heading after a change of path", async () => {
    const { rerender } = render(<Page path="/health" heading="Health" />);
    screen.getByRole('button', { name: 'Search…' }).focus();
    rerender(<Page path="/incidents" heading="Incidents" />);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Incidents' })).toHaveFocus());
  });

  it('leaves the focus inside the page alone, and does nothing on the first page', async () => {
    const { rerender } = render(<Page path="/catalog" heading="Catalog" />);
    const filter = screen.getByRole('textbox', { name: 'Filter' });
    filter.focus();
    rerender(<Page path="/catalog/changes" heading="Catalog" />);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(filter).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Catalog' })).not.toHaveAttribute('tabindex');
  });
});
