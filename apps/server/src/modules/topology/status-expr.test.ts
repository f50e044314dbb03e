import { describe, expect, it } from 'vitest';
import { evaluateStatusExpr, statusCounts, statusExprSummary, type StatusNode } from './status-expr';

function node(name: string, status: string, children: StatusNode[] = [], summary: unknown = {}): StatusNode {
  return { name, status, summary, statusExpr: null, children };
}

describe('statusExpr', () => {
  it('counts the statuses under a component as Mission Control does: a mixed child is one warning, warnings add up', () => {
    const mixed = node('mixed', 'unhealthy', [node('a', 'healthy'), node('b', 'unhealthy'), node('c', 'warning')]);
    const tree = node('root', 'unknown', [mixed, node('ok', 'healthy'), node('down', 'unhealthy'), node('new', 'unknown')]);
    expect(statusCounts(mixed)).toEqual({ healthy: 1, unhealthy: 1, warning: 1 });
    expect(statusCounts(tree)).toEqual({ healthy: 1, unhealthy: 1, warning: 2 });
    expect(statusCounts(node('leaf', 'warning'))).toEqual({ healthy: 0, unhealthy: 0, warning: 1 });
  });

  it('gives the expression the counts with the stored checks, incidents and insights', () => {
    const summary = { checks: { healthy: 2, unhealthy: 1 }, incidents: { availability: { high: 1 } }, insights: 'broken' };
    expect(statusExprSummary(node('root', 'healthy', [node('a', 'healthy')], summary))).toEqual({
      healthy: 1,
      unhealthy: 0,
      warning: 0,
      info: 0,
      checks: { healthy: 2, unhealthy: 1 },
      incidents: { availability: { high: 1 } },
      insights: {},
    });
  });

  it("sets the status the expression gives, and unknown with the reason when it gives no status or fails", () => {
    // The expression of canary-checker's component-status-expr fixture.
    const expression = `summary.healthy > 0 && summary.unhealthy == 0 && summary.warning == 0 ? "healthy" :
      summary.healthy == 0 && summary.unhealthy == 0 && summary.warning == 0 ? "unknown" :
      summary.healthy > 0 && summary.unhealthy > 0 || summary.warning > 0 ? "warning" : "unhealthy"`;
    expect(evaluateStatusExpr(node('r', 'unknown', [node('a', 'healthy'), node('b', 'healthy')]), expression)).toEqual({ status: 'healthy', problem: null });
    expect(evaluateStatusExpr(node('r', 'unknown', [node('a', 'healthy'), node('b', 'unhealthy')]), expression)).toEqual({ status: 'warning', problem: null });
    expect(evaluateStatusExpr(node('r', 'unknown', [node('b', 'unhealthy')]), expression)).toEqual({ status: 'unhealthy', problem: null });
    expect(evaluateStatusExpr(node('r', 'unknown'), 'summary.healthy > 0 ? "good" : "bad"')).toEqual({ status: 'unknown', problem: expect.stringMatching(/^r: statusExpr gave 'bad', which is not a status/) });
    expect(evaluateStatusExpr(node('r', 'unknown'), 'summary.nothing.deeper')).toMatchObject({ status: 'unknown', problem: expect.stringMatching(/^r: statusExpr failed/) });
  });
});
