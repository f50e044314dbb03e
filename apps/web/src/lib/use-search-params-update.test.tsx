import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { withParams } from './search-params';
import { useSearchParamsUpdate } from './use-search-params-update';

function Probe() {
  const [search, update] = useSearchParamsUpdate();
  const twoAtOnce = () => {
    update((current) => withParams(current, { tab: 'network' }));
    update((current) => withParams(current, { pageSize: '100' }), { replace: true });
  };
  return (
    <>
      <output aria-label="query">{search.toString()}</output>
      <button type="button" onClick={twoAtOnce}>
        both
      </button>
    </>
  );
}

describe('useSearchParamsUpdate', () => {
  it('keeps both of two changes made before the page renders again, where the last render\'s query lost the first', async () => {
    const router = createMemoryRouter([{ path: '/health', element: <Probe /> }], { initialEntries: ['/health?tabBy=team'] });
    render(<RouterProvider router={router} />);
    await act(async () => {
      screen.getByRole('button', { name: 'both' }).click();
      await Promise.resolve();
    });
    expect(await screen.findByText('tabBy=team&tab=network&pageSize=100')).toBeTruthy();
  });

  it('builds the next change on an address reached from outside the page, such as Back, not on the one it left', async () => {
    const router = createMemoryRouter([{ path: '/health', element: <Probe /> }], { initialEntries: ['/health?tabBy=team', '/health?tabBy=namespace'], initialIndex: 1 });
    render(<RouterProvider router={router} />);
    await act(async () => {
      await router.navigate(-1);
    });
    expect(await screen.findByText('tabBy=team')).toBeTruthy();
    await act(async () => {
      screen.getByRole('button', { name: 'both' }).click();
      await Promise.resolve();
    });
    expect(await screen.findByText('tabBy=team&tab=network&pageSize=100')).toBeTruthy();
  });
});
