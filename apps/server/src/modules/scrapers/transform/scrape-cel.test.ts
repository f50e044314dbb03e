import { describe, expect, it } from 'vitest';
import { celProblem, evaluateCelBool } from './scrape-cel';

describe('scraper CEL and the name type', () => {
  it("refuses `type` read as a variable, as config-db's CEL does, and says to write config_type", () => {
    expect(celProblem('item', "type == 'Custom::Resource'", true)).toMatch(/type of types, not a variable.*config_type/);
    expect(celProblem('item', "config_type == 'Custom::Resource'", true)).toBeNull();
    expect(evaluateCelBool('item', "config_type == 'Custom::Resource'", { config_type: 'Custom::Resource' })).toBe(true);
  });

  it('leaves type(x) calls, fields named type and quoted text as they are', () => {
    expect(celProblem('item', "config.type == 'Custom::Resource' && type(config) == map", true)).toBeNull();
    expect(celProblem('item', "name == 'type'", true)).toBeNull();
    expect(celProblem('item', 'nope == 1', true)).not.toMatch(/type of types/);
  });
});
