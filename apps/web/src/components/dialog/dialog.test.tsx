import '@/components/test-support/browser-polyfills';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './confirm-dialog';
import { Dialog, type DialogProps } from './dialog';

function OpenDialog(props: Partial<DialogProps>) {
  const [open, setOpen] = useState(true);
  return (
    <Dialog open={open} onOpenChange={setOpen} title="Settings" size="small" footer={<button type="button">Save</button>} {...props}>
      <p>Body text</p>
    </Dialog>
  );
}

describe('Dialog', () => {
  it('shows its title, content and footer', () => {
    render(<OpenDialog />);
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(dialog).toHaveTextContent('Body text');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(dialog).toHaveAttribute('data-size', 'small');
  });

  it('closes with Escape and with the close button', async () => {
    const user = userEvent.setup();
    render(<OpenDialog />);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    render(<OpenDialog />);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('expands to full size and collapses back', async () => {
    const user = userEvent.setup();
    render(<OpenDialog />);
    await user.click(screen.getByRole('button', { name: 'Expand' }));
    expect(screen.getByRole('dialog')).toHaveAttribute('data-size', 'full');
    await user.click(screen.getByRole('button', { name: 'Collapse' }));
    expect(screen.getByRole('dialog')).toHaveAttribute('data-size', 'small');
  });

  it('offers a help link that opens the documentation in a new tab', () => {
    render(<OpenDialog helpLink="https://docs.example.com/flags" />);
    const link = screen.getByRole('link', { name: 'Help' });
    expect(link).toHaveAttribute('href', 'https://docs.example.com/flags');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it('has no expand control or help link when not asked for', () => {
    render(<OpenDialog expandable={false} />);
    expect(screen.queryByRole('button', { name: 'Expand' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Help' })).not.toBeInTheDocument();
  });
});

describe('Dialog focus', () => {
  /** A table row that opens a dialog, drawn anew (another element, the same row id) while the dialog is open. */
  function RowThatRedraws() {
    const [open, setOpen] = useState(false);
    const [drawing, setDrawing] = useState(0);
    return (
      <>
        <table aria-label="Checks">
          <tbody>
            <tr key={drawing} data-row-id="check-1" tabIndex={0} onKeyDown={(event) => event.key === 'Enter' && setOpen(true)}>
              <td>api</td>
            </tr>
          </tbody>
        </table>
        {open && (
          <Dialog open title="Check api" onOpenChange={() => setOpen(false)}>
            <button type="button" onClick={() => setDrawing((value) => value + 1)}>
              Redraw the page
            </button>
          </Dialog>
        )}
      </>
    );
  }

  it('gives the focus back to the row that opened it, even when the row was drawn anew and the dialog unmounted', async () => {
    const user = userEvent.setup();
    render(<RowThatRedraws />);
    screen.getByRole('row').focus();
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Redraw the page' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.getByRole('row')).toHaveFocus());
  });
});

describe('ConfirmDialog', () => {
  it('calls onConfirm when the confirm button is pressed', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<ConfirmDialog open onOpenChange={() => {}} title="Delete flag" message="Really?" confirmLabel="Delete" onConfirm={onConfirm} />);
    expect(screen.getByRole('dialog', { name: 'Delete flag' })).toHaveTextContent('Really?');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('closes on Cancel without confirming', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onOpenChange = vi.fn();
    render(<ConfirmDialog open onOpenChange={onOpenChange} title="Delete flag" message="Really?" onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('disables its buttons while the action is pending', () => {
    render(<ConfirmDialog open onOpenChange={() => {}} title="Delete flag" message="Really?" confirmLabel="Delete" isPending onConfirm={() => {}} />);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });
});
