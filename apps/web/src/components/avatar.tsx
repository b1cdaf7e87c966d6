import { avatarSizeFor } from '@atelier/contracts/constants';
import { cn } from '../lib/cn';

export interface AvatarPerson {
  name: string;
  email: string;
  color: string;
  avatar: { xs: string | null; sm: string | null; md: string | null };
}

/** First letter of the name, or of the e-mail when there is no name. */
export function avatarLetter(person: Pick<AvatarPerson, 'name' | 'email'>): string {
  const source = person.name.trim() || person.email.trim();
  return (Array.from(source)[0] ?? '?').toLocaleUpperCase();
}

/** A person's picture at the size that fits, or their letter on their colour. */
export function Avatar({
  person,
  size = 36,
  className,
}: {
  person: AvatarPerson;
  size?: number;
  className?: string;
}) {
  const image = person.avatar[avatarSizeFor(size)];
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (image) {
    return (
      <img
        src={image}
        alt={person.name || person.email}
        style={style}
        className={cn('shrink-0 rounded-full object-cover', className)}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={person.name || person.email}
      style={{ ...style, backgroundColor: person.color }}
      className={cn(
        'grid shrink-0 place-items-center rounded-full font-semibold text-white select-none',
        className,
      )}
    >
      {avatarLetter(person)}
    </span>
  );
}
