import { describe, expect, it } from 'vitest';
import { isUiSource } from './resource-origin';

describe('isUiSource', () => {
  it('treats a missing, blank or UI source as made in the UI', () => {
    for (const source of [null, undefined, '', 'UI']) expect(isUiSource(source)).toBe(true);
  });

  it('treats any other source as owning the resource', () => {
    for (const source of ['KubernetesCRD', 'ConfigFile', 'agent']) expect(isUiSource(source)).toBe(false);
  });
});
