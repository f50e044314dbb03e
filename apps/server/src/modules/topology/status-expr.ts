import { isComponentStatus, type ComponentStatus } from '@opsdeck/shared';
import { displayText } from '../health';

/** A stored component as a statusExpr sees it: its status, its stored summary and the components under it. */
export interface StatusNode {
  name: string;
  status: string;
  summary: unknown;
  statusExpr: string | null;
  children: StatusNode[];
}

/** The counts Mission Control's summary adds to checks, incidents and insights. */
interface StatusCounts {
  healthy: number;
  unhealthy: number;
  warning: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The statuses under a component counted as Mission Control's summary counts them: a component without children counts
 * its own status; a parent counts each child once (warning when the child holds both healthy and unhealthy, else
 * unhealthy, else healthy) and adds up the warnings below it.
 */
export function statusCounts(node: StatusNode): StatusCounts {
  if (node.children.length === 0) {
    return {
      healthy: node.status === 'healthy' ? 1 : 0,
      unhealthy: node.status === 'unhealthy' ? 1 : 0,
      warning: node.status === 'warning' ? 1 : 0,
    };
  }
  const counts: StatusCounts = { healthy: 0, unhealthy: 0, warning: 0 };
  for (const child of node.children) {
    const below = statusCounts(child);
    if (below.healthy > 0 && below.unhealthy > 0) counts.warning += 1;
    else if (below.unhealthy > 0) counts.unhealthy += 1;
    else if (below.healthy > 0) counts.healthy += 1;
    counts.warning += below.warning;
  }
  return counts;
}

/** What `summary` holds for a statusExpr: the counts above, and the stored summary's checks, incidents and insights. */
export function statusExprSummary(node: StatusNode): Record<string, unknown> {
  const stored = isRecord(node.summary) ? node.summary : {};
  return {
    ...statusCounts(node),
    // Mission Control counts an info status too; no component here has one, and expressions may still read it.
    info: 0,
    checks: isRecord(stored.checks) ? stored.checks : {},
    incidents: isRecord(stored.incidents) ? stored.incidents : {},
    insights: isRecord(stored.insights) ? stored.insights : {},
  };
}

/** A statusExpr's answer over the node: a component status, or why there is none (the status is then unknown). */
export function evaluateStatusExpr(node: StatusNode, expression: string): { status: ComponentStatus; problem: string | null } {
  let answer: string;
  try {
    answer = displayText({ expr: expression }, { summary: statusExprSummary(node) }).trim();
  } catch (error) {
    return { status: 'unknown', problem: `${node.name}: statusExpr failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (isComponentStatus(answer)) return { status: answer, problem: null };
  return { status: 'unknown', problem: `${node.name}: statusExpr gave '${answer}', which is not a status here (healthy, unhealthy, warning or unknown)` };
}
