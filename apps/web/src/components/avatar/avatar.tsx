import { useState } from 'react';
import { clsx } from 'clsx';
import { initials } from '@opsdeck/shared';

export type AvatarSize = 'sm' | 'md' | 'lg';

const SIZE_CLASSES: Record<AvatarSize, string> = {
  sm: 'size-6 text-[10px]',
  md: 'size-8 text-xs',
  lg: 'size-10 text-sm',
};

export interface AvatarProps {
  name: string | null | undefined;
  src?: string | null;
  size?: AvatarSize;
  className?: string;
}

/** A picture when one is given and loads, otherwise up to two initials. */
export function Avatar({ name, src, size = 'md', className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const label = name ?? 'Unknown user';
  const showImage = Boolean(src) && failedSrc !== src;
  return (
    <span
      title={label}
      className={clsx(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-gray-200 font-medium text-gray-700 ring-2 ring-white',
        SIZE_CLASSES[size],
        className,
      )}
    >
      {showImage && src ? (
        <img src={src} alt={label} className="size-full object-cover" onError={() => setFailedSrc(src)} />
      ) : (
        <span role="img" aria-label={label}>
          {initials(name) || '?'}
        </span>
      )}
    </span>
  );
}
