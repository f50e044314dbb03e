import { describe, expect, it } from 'vitest';
import { getDefaultNormalizer, render, screen, within } from '@testing-library/react';
import { DiffView } from './diff-view';

const DIFF = ['--- a/config.json', '+++ b/config.json', '@@ -1,3 +1,3 @@', ' {', '-  "replicas": 2', '+  "replicas": 3', ' }'].join('\n');

function rowOf(text: string): HTMLElement {
  // Diff lines mean their leading spaces, so the text is matched as it is.
  const row = screen.getByText(text, { normalizer: getDefaultNormalizer({ trim: false, collapseWhitespace: false }) }).closest('tr');
  if (row === null) throw new Error(`no row holds ${text}`);
  return row;
}

describe('DiffView', () => {
  it('colours added lines green, removed lines red and marks the hunk header', () => {
    render(<DiffView diff={DIFF} />);
    expect(rowOf('+  "replicas": 3')).toHaveAttribute('data-kind', 'added');
    expect(rowOf('+  "replicas": 3')).toHaveClass('bg-green-50');
    expect(rowOf('-  "replicas": 2')).toHaveAttribute('data-kind', 'removed');
    expect(rowOf('-  "replicas": 2')).toHaveClass('bg-red-50');
    expect(rowOf('@@ -1,3 +1,3 @@')).toHaveAttribute('data-kind', 'hunk');
    expect(rowOf('--- a/config.json')).toHaveAttribute('data-kind', 'file');
  });

  it('shows the old and new line number beside each line', () => {
    render(<DiffView diff={DIFF} />);
    const removed = within(rowOf('-  "replicas": 2')).getAllByRole('cell');
    expect(removed.map((cell) => cell.textContent)).toEqual(['2', '', '-  "replicas": 2']);
    const added = within(rowOf('+  "replicas": 3')).getAllByRole('cell');
    expect(added.map((cell) => cell.textContent)).toEqual(['', '2', '+  "replicas": 3']);
    expect(within(rowOf(' }')).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['3', '3', ' }']);
  });

  it('says there is no diff when the text is empty', () => {
    render(<DiffView diff="" emptyText="No diff recorded" />);
    expect(screen.getByText('No diff recorded')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
