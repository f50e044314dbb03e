import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useDocumentTitle } from './use-document-title';

describe('useDocumentTitle', () => {
  it('names the tab "{Page} | Opsdeck" and follows the page name when it changes', () => {
    const { rerender } = renderHook(({ page }) => useDocumentTitle(page), { initialProps: { page: 'Incidents' } });
    expect(document.title).toBe('Incidents | Opsdeck');
    rerender({ page: 'INC-1 Checkout latency above SLO' });
    expect(document.title).toBe('INC-1 Checkout latency above SLO | Opsdeck');
  });
});
