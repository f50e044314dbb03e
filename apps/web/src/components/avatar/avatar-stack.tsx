import { AVATAR_STACK_MAX } from '@opsdeck/shared';
import { Avatar, type AvatarSize } from './avatar';

export interface AvatarStackPerson {
  id: string;
  name: string | null;
  avatar?: string | null;
}

export interface AvatarStackProps {
  people: readonly AvatarStackPerson[];
  max?: number;
  size?: AvatarSize;
}

/** Overlapping avatars; beyond `max` the rest are summarised as '+N'. */
export function AvatarStack({ people, max = AVATAR_STACK_MAX, size = 'sm' }: AvatarStackProps) {
  const shown = people.slice(0, max);
  const hidden = people.length - shown.length;
  return (
    <span className="inline-flex items-center -space-x-1.5">
      {shown.map((person) => (
        <Avatar key={person.id} name={person.name} src={person.avatar} size={size} />
      ))}
      {hidden > 0 && (
        <span
          title={people
            .slice(max)
            .map((person) => person.name)
            .join(', ')}
          className="inline-flex size-6 items-center justify-center rounded-full bg-gray-100 text-[10px] font-medium text-gray-600 ring-2 ring-white"
        >
          +{hidden}
        </span>
      )}
    </span>
  );
}
