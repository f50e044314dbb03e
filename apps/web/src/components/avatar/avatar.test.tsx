import '@/components/test-support/browser-polyfills';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Avatar } from './avatar';
import { AvatarStack } from './avatar-stack';

describe('Avatar', () => {
  it('shows the picture when one is given', () => {
    render(<Avatar name="Ada Lovelace" src="/ada.png" />);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute('src', '/ada.png');
  });

  it('falls back to two initials without a picture or when it fails to load', () => {
    const { rerender } = render(<Avatar name="Ada Lovelace" />);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveTextContent('AL');
    rerender(<Avatar name="Grace Brewster Murray Hopper" src="/broken.png" />);
    fireEvent.error(screen.getByRole('img', { name: 'Grace Brewster Murray Hopper' }));
    expect(screen.getByRole('img', { name: 'Grace Brewster Murray Hopper' })).toHaveTextContent('GH');
  });
});

describe('AvatarStack', () => {
  const people = Array.from({ length: 8 }, (_, index) => ({ id: String(index), name: `Person ${index}` }));

  it('shows up to five avatars and summarises the rest as +N', () => {
    render(<AvatarStack people={people} />);
    expect(screen.getAllByRole('img')).toHaveLength(5);
    expect(screen.getByText('+3')).toBeInTheDocument();
  });

  it('has no summary when everyone fits', () => {
    render(<AvatarStack people={people.slice(0, 5)} />);
    expect(screen.queryByText(/^\+/)).not.toBeInTheDocument();
  });
});
