import { describe, expect, it } from 'vitest';
import { shouldPollJobs } from './get-scraper-jobs';
import type { ScraperJob } from './types';

function job(id: string, status: ScraperJob['status']): ScraperJob {
  return { id, name: 'ScraperRun', status, time_start: '2026-11-29T20:00:00Z', duration_millis: null, success_count: 0, error_count: 0, created_at: '2026-11-29T20:00:00Z', details: null };
}

describe('shouldPollJobs', () => {
  it('does not poll a history whose newest run has ended when no run was asked for', () => {
    expect(shouldPollJobs([job('b', 'SUCCESS'), job('a', 'RUNNING')], undefined)).toBe(false);
  });

  it('polls while the newest run is RUNNING even when this page did not start it', () => {
    expect(shouldPollJobs([job('a', 'RUNNING')], undefined)).toBe(true);
  });

  it('polls after Run Now until a run newer than the baseline shows up', () => {
    expect(shouldPollJobs([job('a', 'SUCCESS')], 'a')).toBe(true);
    expect(shouldPollJobs([job('b', 'SUCCESS'), job('a', 'SUCCESS')], 'a')).toBe(false);
  });

  it('polls for the first run of a new scraper until it has ended', () => {
    expect(shouldPollJobs([], null)).toBe(true);
    expect(shouldPollJobs(undefined, null)).toBe(true);
    expect(shouldPollJobs([job('a', 'RUNNING')], null)).toBe(true);
    expect(shouldPollJobs([job('a', 'FAILED')], null)).toBe(false);
  });
});
