import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar, avatarLetter, type AvatarPerson } from '../../src/components/avatar';

const images = { xs: '/avatars/xs.webp', sm: '/avatars/sm.webp', md: '/avatars/md.webp' };
const person = (overrides: Partial<AvatarPerson> = {}): AvatarPerson => ({
  name: 'grace hopper',
  email: 'grace@atelier.test',
  color: 'rgb(196, 86, 47)',
  avatar: { xs: null, sm: null, md: null },
  ...overrides,
});

describe('avatar', () => {
  it('uses the first letter of the name, upper-cased', () => {
    expect(avatarLetter({ name: 'grace hopper', email: 'x@y.z' })).toBe('G');
  });

  it('falls back to the e-mail when there is no name', () => {
    expect(avatarLetter({ name: '  ', email: 'zoe@atelier.test' })).toBe('Z');
  });

  it('draws the letter on the person’s colour when there is no picture', () => {
    render(<Avatar person={person()} size={40} />);
    const avatar = screen.getByRole('img', { name: 'grace hopper' });
    expect(avatar).toHaveTextContent('G');
    expect(avatar).toHaveStyle({ backgroundColor: 'rgb(196, 86, 47)' });
  });

  it.each([
    [64, images.md],
    [52, images.md],
    [51, images.sm],
    [33, images.sm],
    [32, images.xs],
    [20, images.xs],
  ])('at %i px shows the picture of the matching size', (size, src) => {
    render(<Avatar person={person({ avatar: images })} size={size} />);
    expect(screen.getByRole('img', { name: 'grace hopper' })).toHaveAttribute('src', src);
  });
});
