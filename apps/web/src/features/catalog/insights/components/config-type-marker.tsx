import type { LucideIcon } from 'lucide-react';
import { Box, Boxes, Cloud, Container, Database, FileCode, Folder, Globe, Layers, Network, Server } from 'lucide-react';

/** The first fragment of the type that appears picks the icon; order matters where one contains another. */
const ICONS: readonly (readonly [string, LucideIcon])[] = [
  ['replicaset', Layers],
  ['deployment', Boxes],
  ['statefulset', Boxes],
  ['daemonset', Boxes],
  ['pod', Container],
  ['namespace', Folder],
  ['cluster', Network],
  ['node', Server],
  ['ec2', Server],
  ['instance', Server],
  ['rds', Database],
  ['database', Database],
  ['service', Globe],
  ['ingress', Globe],
  ['configmap', FileCode],
  ['secret', FileCode],
  ['aws', Cloud],
];

/** A small icon for the config's type, named by the type itself for screen readers and on hover. */
export function ConfigTypeMarker({ type }: { type: string }) {
  const lower = type.toLowerCase();
  const Icon = ICONS.find(([fragment]) => lower.includes(fragment))?.[1] ?? Box;
  return <Icon role="img" aria-label={type} className="size-4 shrink-0 text-gray-500" />;
}
