import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormActions } from './form-actions';

describe('FormActions', () => {
  it('offers Save for a new resource, with Cancel when the form can be dismissed', async () => {
    const user = userEvent.setup();
    const handleCancel = vi.fn();
    render(<FormActions isEditing={false} isSaving={false} onCancel={handleCancel} />);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('type', 'submit');
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(handleCancel).toHaveBeenCalledOnce();
  });

  it('offers Update and Delete for an existing resource', async () => {
    const user = userEvent.setup();
    const handleDelete = vi.fn();
    render(<FormActions isEditing isSaving={false} onDelete={handleDelete} />);
    expect(screen.getByRole('button', { name: 'Update' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(handleDelete).toHaveBeenCalledOnce();
  });

  it('holds every button back while saving', () => {
    render(<FormActions isEditing isSaving onDelete={() => undefined} onCancel={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
  });

  it('holds Update back when asked, leaving Delete available', () => {
    render(<FormActions isEditing isSaving={false} submitDisabled onDelete={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
  });
});
