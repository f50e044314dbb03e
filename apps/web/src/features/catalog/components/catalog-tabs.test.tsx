import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import { CatalogTabs } from './catalog-tabs';

describe('Catalog tabs', () => {
  it.each([
    ['/catalog', 'Catalog'],
    ['/catalog/changes', 'Changes'],
    ['/catalog/insights', 'Insights'],
    ['/catalog/scrapers', 'Scrapers'],
  ])('at %s marks %s as the open tab and no other', (path, open) => {
    renderWithProviders(<CatalogTabs />, { path });
    const tabs = within(screen.getByRole('navigation', { name: 'Catalog pages' }));
    const links = tabs.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Catalog', '/catalog'],
      ['Changes', '/catalog/changes'],
      ['Insights', '/catalog/insights'],
      ['Scrapers', '/catalog/scrapers'],
    ]);
    expect(links.filter((link) => link.getAttribute('aria-current') === 'page').map((link) => link.textContent)).toEqual([open]);
  });
});
