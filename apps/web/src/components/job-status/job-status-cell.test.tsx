import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { JobStatusCell } from './job-status-cell';

describe('JobStatusCell', () => {
  it('shows nothing before the first job', () => {
    const { container } = render(<JobStatusCell resourceName="web-checks" status={null} details={null} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('colours the status and offers no details link when the job left none', () => {
    render(<JobStatusCell resourceName="web-checks" status="FAILED" details={{}} />);
    expect(screen.getByText('FAILED')).toHaveClass('text-red-700');
    expect(screen.queryByRole('button', { name: '(View details)' })).not.toBeInTheDocument();
  });

  it('opens the raw details from the link', async () => {
    const user = userEvent.setup();
    render(<JobStatusCell resourceName="web-checks" status="FAILED" details={{ errors: ['timeout'] }} />);
    await user.click(screen.getByRole('button', { name: '(View details)' }));
    expect(screen.getByRole('dialog', { name: 'Job details for web-checks' })).toHaveTextContent('"timeout"');
  });

  it('shows the details through the view it is given', async () => {
    const user = userEvent.setup();
    render(<JobStatusCell resourceName="app-configs" status="SUCCESS" details={{ added: 2 }} renderDetails={() => <p>2 added</p>} />);
    await user.click(screen.getByRole('button', { name: '(View details)' }));
    expect(screen.getByRole('dialog', { name: 'Job details for app-configs' })).toHaveTextContent('2 added');
  });
});
