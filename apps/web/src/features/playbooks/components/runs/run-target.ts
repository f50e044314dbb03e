import type { PlaybookTargetType } from '@opsdeck/shared';

export interface RunTargetRef {
  type: PlaybookTargetType;
  id: string;
}

/** The one target a run has, if any (a run has at most one of config, component and check). */
export function runTargetOf(run: { config_id: string | null; component_id: string | null; check_id: string | null }): RunTargetRef | null {
  if (run.config_id !== null) return { type: 'config', id: run.config_id };
  if (run.component_id !== null) return { type: 'component', id: run.component_id };
  if (run.check_id !== null) return { type: 'check', id: run.check_id };
  return null;
}

/** Where each area opens its item: the catalog page, the topology page, or the health page's check modal. */
export function runTargetPath({ type, id }: RunTargetRef): string {
  const encoded = encodeURIComponent(id);
  switch (type) {
    case 'config':
      return `/catalog/${encoded}`;
    case 'component':
      return `/topology/${encoded}`;
    case 'check':
      return `/health?checkId=${encoded}`;
  }
}

export const RUN_TARGET_LABELS: Record<PlaybookTargetType, string> = { config: 'Catalog Item', component: 'Component', check: 'Check' };
