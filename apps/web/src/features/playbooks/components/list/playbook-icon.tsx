import { clsx } from 'clsx';
import { BookOpenCheck, Bug, Cloud, Database, Globe, RefreshCw, Server, Ship, Terminal, Trash2, type LucideIcon } from 'lucide-react';

/** Icon names as playbook specs write them ('kubernetes', 'postgres', 'restart'), matched by a word they contain. */
const ICONS: readonly [RegExp, LucideIcon][] = [
  [/kubernetes|k8s|pod|helm/i, Ship],
  [/database|postgres|mysql|sql|redis/i, Database],
  [/restart|reload|refresh|rollout/i, RefreshCw],
  [/delete|trash|clean/i, Trash2],
  [/bash|shell|script|terminal|exec/i, Terminal],
  [/http|web|api|globe/i, Globe],
  [/aws|azure|gcp|cloud/i, Cloud],
  [/server|node|host|vm/i, Server],
  [/debug|diagnos|bug/i, Bug],
];

/** Only same-origin paths and http(s) addresses are shown as images. */
function imageSource(icon: string): string | null {
  const text = icon.trim();
  if (text.startsWith('/') && !text.startsWith('//')) return text;
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    return new URL(text).href;
  } catch {
    return null;
  }
}

export interface PlaybookIconProps {
  icon: string | null;
  className?: string;
}

/** A playbook's icon: an image for a URL, else a known icon by name, else a runbook. */
export function PlaybookIcon({ icon, className }: PlaybookIconProps) {
  const src = icon === null ? null : imageSource(icon);
  if (src !== null) return <img src={src} alt="" aria-hidden="true" className={clsx('size-5 shrink-0 object-contain', className)} />;
  const Icon = (icon !== null && ICONS.find(([pattern]) => pattern.test(icon))?.[1]) || BookOpenCheck;
  return <Icon aria-hidden="true" className={clsx('size-5 shrink-0 text-gray-500', className)} />;
}
