import { Box, Cloud, Database, Globe, HardDrive, Layers, Network, Server, Ship, type LucideIcon } from 'lucide-react';
import { clsx } from 'clsx';
import { safeHref } from '../utils/property-format';

/** Icon names as topology specs write them ('kubernetes', 'k8s-pod', 'postgres'), matched by a word they contain. */
const ICONS: readonly [RegExp, LucideIcon][] = [
  [/kubernetes|k8s|pod|namespace|cluster/i, Ship],
  [/database|postgres|mysql|sql|redis|mongo/i, Database],
  [/server|node|host|vm|ec2/i, Server],
  [/aws|azure|gcp|cloud/i, Cloud],
  [/http|web|dns|url|api/i, Globe],
  [/disk|volume|storage|pvc/i, HardDrive],
  [/network|ingress|service|lb|load/i, Network],
  [/topology|group|layer/i, Layers],
];

export interface ComponentIconProps {
  icon: string | null;
  /** The component's type, tried when the icon names nothing known. */
  type?: string | null;
  className?: string;
}

/** A component's icon: an image for a URL, else a known icon by name or type, else a box. */
export function ComponentIcon({ icon, type, className }: ComponentIconProps) {
  const src = icon !== null && /^(https?:)?\//i.test(icon) ? safeHref(icon) : null;
  if (src !== null) return <img src={src} alt="" aria-hidden="true" className={clsx('size-5 shrink-0 object-contain', className)} />;
  const hint = [icon, type].filter((part): part is string => part !== null && part !== undefined && part !== '');
  const Icon = ICONS.find(([pattern]) => hint.some((part) => pattern.test(part)))?.[1] ?? Box;
  return <Icon aria-hidden="true" className={clsx('size-5 shrink-0 text-gray-500', className)} />;
}
