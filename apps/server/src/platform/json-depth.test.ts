import { describe, expect, it } from 'vitest';
import { checkJsonDepth, JSON_DEPTH_LIMIT } from './json-depth';

function depthError(text: string, limit?: number): unknown {
  try {
    checkJsonDepth(text, limit);
    return null;
  } catch (error) {
    return error;
  }
}

describe('checkJsonDepth', () => {
  it('lets JSON nested up to the limit through and refuses one level more with OD_JSON_DEPTH', () => {
    expect(depthError(`${'['.repeat(JSON_DEPTH_LIMIT)}${']'.repeat(JSON_DEPTH_LIMIT)}`)).toBeNull();
    expect(depthError(`${'{"a":'.repeat(JSON_DEPTH_LIMIT + 1)}1${'}'.repeat(JSON_DEPTH_LIMIT + 1)}`)).toMatchObject({
      statusCode: 400,
      code: 'OD_JSON_DEPTH',
      details: `The limit is ${JSON_DEPTH_LIMIT} levels of arrays and objects`,
    });
  });

  it('counts siblings once, not their sum', () => {
    expect(depthError('[[1],[2],[3],{"a":[4]}]', 3)).toBeNull();
    expect(depthError('[[1],[2],[[3]]]', 2)).not.toBeNull();
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depthError(JSON.stringify({ text: '[[[[{{{{', quoted: 'a\\"[[[[b', tail: '\\' }), 2)).toBeNull();
    expect(depthError(JSON.stringify(['"]]]]', ['x']]), 2)).toBeNull();
  });

  it('stops at the first level too deep, long before the end of a huge body', () => {
    const started = performance.now();
    expect(depthError(`${'['.repeat(1_000_000)}`)).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('leaves malformed JSON for the parser to report', () => {
    for (const text of ['', '{', ']]]]', '{"a":', 'not json']) expect(depthError(text)).toBeNull();
  });
});
