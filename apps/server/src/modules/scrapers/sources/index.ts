import type { SourceRunner } from '../types';
import { runFileSource } from './file';
import { runHttpSource } from './http';
import { runSqlSource } from './sql';
import { runKubernetesSource } from './kubernetes';
import { runKubernetesFileSource } from './kubernetes-file';
import { runExecSource } from './exec';

/** Kind → runner: a spec's source list is keyed by kind (`file: [...]`), and these are the kinds this server runs. */
export type SourceRegistry = ReadonlyMap<string, SourceRunner>;

export const sourceRunners: SourceRegistry = new Map<string, SourceRunner>([
  ['file', runFileSource],
  ['http', runHttpSource],
  ['sql', runSqlSource],
  ['kubernetes', runKubernetesSource],
  ['kubernetesFile', runKubernetesFileSource],
  ['exec', runExecSource],
]);
