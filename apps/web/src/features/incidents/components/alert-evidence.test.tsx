import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import type { LinkedAlert } from '../api/types';
import { AlertEvidence, safeExternalUrl } from './alert-evidence';
import { evidenceStatus, evidenceTitle, evidenceTypeLabel } from './evidence-label';

const alert: LinkedAlert = {
  id: 'a1',
  name: 'HighErrorRate',
  status: 'firing',
  severity: 'critical',
  labels: { alertname: 'HighErrorRate', instance: 'api-1:9100', job: 'node' },
  generator_url: 'http://prometheus.example.com:9090/graph?g0.expr=up',
  last_received_at: new Date().toISOString(),
};

describe('alert evidence', () => {
  it('shows the state, severity, labels and a link to the source', () => {
    renderWithProviders(<AlertEvidence alert={alert} />);
    const box = screen.getByTestId('alert-evidence');
    expect(within(box).getByText('Firing')).toBeInTheDocument();
    expect(within(box).getByText('Severity: critical')).toBeInTheDocument();
    const labels = within(box).getByRole('list', { name: 'Labels of HighErrorRate' });
    expect(within(labels).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['instance=api-1:9100', 'job=node']);
    const link = within(box).getByRole('link', { name: 'Source' });
    expect(link).toHaveAttribute('href', 'http://prometheus.example.com:9090/graph?g0.expr=up');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('links to the source only when it is an http or https URL', () => {
    expect(safeExternalUrl('https://grafana.example.com/d/1')).toBe('https://grafana.example.com/d/1');
    expect(safeExternalUrl('javascript:alert(1)')).toBeNull();
    expect(safeExternalUrl('data:text/html,<script>1</script>')).toBeNull();
    expect(safeExternalUrl('/relative/path')).toBeNull();
    expect(safeExternalUrl(null)).toBeNull();
    renderWithProviders(<AlertEvidence alert={{ ...alert, status: 'resolved', generator_url: 'javascript:alert(1)' }} />);
    expect(screen.getByText('Resolved')).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('names an alert evidence after its alert and reads firing as unhealthy', () => {
    const evidence = {
      id: 'e1',
      hypothesis_id: 'h1',
      type: 'alert' as const,
      description: 'Alert HighErrorRate is firing',
      definition_of_done: false,
      done: false,
      script: null,
      evidence: null,
      properties: {},
      config_id: null,
      config_analysis_id: null,
      config_change_id: null,
      component_id: null,
      check_id: null,
      alert_id: 'a1',
      created_by: null,
      created_at: new Date().toISOString(),
      creator: null,
      check: null,
      config: null,
      component: null,
      config_analysis: null,
      config_change: null,
      alert,
    };
    expect(evidenceTypeLabel('alert')).toBe('Alert');
    expect(evidenceTitle(evidence)).toBe('HighErrorRate');
    expect(evidenceStatus(evidence)).toBe('unhealthy');
    expect(evidenceStatus({ ...evidence, alert: { ...alert, status: 'resolved' } })).toBe('healthy');
  });
});
