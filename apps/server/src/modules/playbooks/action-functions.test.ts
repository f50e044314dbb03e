import { describe, expect, it } from 'vitest';
import { executeGoTemplate, parseGoTemplate } from '../../platform/go-template/go-template';
import { TEMPLATE_FUNCTION_NAMES, templateFunctions } from './action-functions';

const data = {
  check: { labels: { pod: 'api-1' } },
  actions: { first: { status: 'completed', result: { stdout: 'pod-1', json: '{"severity":"high"}' } } },
};

function render(text: string): string {
  return executeGoTemplate(parseGoTemplate(text, TEMPLATE_FUNCTION_NAMES), data, { functions: templateFunctions(data.actions), maxSteps: 10_000, maxOutput: 10_000 });
}

describe('playbook template functions', () => {
  it('reads earlier actions with getAction and getLastAction, and index', () => {
    expect(render('{{ (getAction "first").result.stdout }}|{{ getLastAction.status }}|{{ index .check.labels "pod" }}')).toBe('pod-1|completed|api-1');
    expect(render('{{ $d := (getAction "first").result.json | json }}{{ index $d "severity" }}')).toBe('high');
  });
});
