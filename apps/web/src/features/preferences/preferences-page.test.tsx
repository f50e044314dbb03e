import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PreferencesPage } from './preferences-page';

describe('Preferences page', () => {
  it("shows 'Hide Deleted Catalog' switched on by default", () => {
    render(<PreferencesPage />);
    expect(screen.getByRole('switch', { name: 'Hide Deleted Catalog' })).toBeChecked();
  });

  it("stores 'no' and 'yes' in localStorage as the switch is flipped", async () => {
    const user = userEvent.setup();
    render(<PreferencesPage />);
    const toggle = screen.getByRole('switch', { name: 'Hide Deleted Catalog' });
    await user.click(toggle);
    expect(toggle).not.toBeChecked();
    expect(localStorage.getItem('hideDeletedCatalog')).toBe('no');
    await user.click(toggle);
    expect(localStorage.getItem('hideDeletedCatalog')).toBe('yes');
  });

  it('reads a stored choice', () => {
    localStorage.setItem('hideDeletedCatalog', 'no');
    render(<PreferencesPage />);
    expect(screen.getByRole('switch', { name: 'Hide Deleted Catalog' })).not.toBeChecked();
  });
});
