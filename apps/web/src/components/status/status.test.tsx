import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { HealthDot } from './health-dot';
import { SeverityBadge } from './severity-badge';

describe('HealthDot', () => {
  it.each([
    ['unhealthy', 'red'],
    ['degraded', 'red'],
    ['missing', 'red'],
    ['unknown', 'grey'],
    ['suspended', 'grey'],
    ['warning', 'orange'],
    ['mixed', 'orange'],
    ['healthy', 'green'],
  ])('shows %s as a %s dot named after the status', (status, color) => {
    render(<HealthDot status={status} />);
    expect(screen.getByRole('img', { name: status })).toHaveAttribute('data-color', color);
  });
});

describe('SeverityBadge', () => {
  it.each([
    ['low', 'green'],
    ['medium', 'green'],
    ['high', 'orange'],
    ['critical', 'red'],
    ['blocker', 'red'],
    ['info', 'gray'],
    ['warning', 'yellow'],
  ])('colours %s %s', (severity, color) => {
    render(<SeverityBadge severity={severity} />);
    expect(screen.getByText(severity)).toHaveAttribute('data-color', color);
  });
});
