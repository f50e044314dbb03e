import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ScraperTypeIcon, scraperKinds } from './scraper-type-icon';

describe('scraperKinds', () => {
  it('lists the source kinds of a bare spec in spec order, ignoring schedule and retention', () => {
    expect(scraperKinds({ schedule: '@every 5m', http: [], file: [], retention: {} })).toEqual(['http', 'file']);
  });

  it('reads a pasted Mission Control resource through its spec', () => {
    expect(scraperKinds({ apiVersion: 'configs.flanksource.com/v1', kind: 'ScrapeConfig', spec: { kubernetes: [{ clusterName: 'prod' }] } })).toEqual(['kubernetes']);
  });

  it('finds no kinds in something that is not an object', () => {
    expect(scraperKinds(null)).toEqual([]);
    expect(scraperKinds(['file'])).toEqual([]);
  });
});

describe('ScraperTypeIcon', () => {
  it('names every kind of the spec for screen readers', () => {
    render(<ScraperTypeIcon spec={{ sql: [], kubernetesFile: [] }} />);
    expect(screen.getByRole('img', { name: 'SQL, Kubernetes File' })).toBeInTheDocument();
  });

  it('falls back to a generic scraper icon when the spec names no known kind', () => {
    render(<ScraperTypeIcon spec={{}} />);
    expect(screen.getByRole('img', { name: 'Scraper' })).toBeInTheDocument();
  });
});
