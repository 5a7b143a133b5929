import { describe, expect, it } from 'vitest';
import { awaitingPosting, depreciationRowState } from '../src/fixed-assets';

describe('where a month of the schedule stands', () => {
  const row = (date: string, isDepreciated = false) => ({ depreciationDateTime: date, isDepreciated });
  it('posted, due (the scheduler posts it shortly), to come, or never after a stop', () => {
    const today = '2026-11-28';
    expect(depreciationRowState(row('2026-10-31', true), { stoppedOn: null }, today)).toBe('Posted');
    expect(depreciationRowState(row('2026-10-31'), { stoppedOn: null }, today)).toBe('Due');
    expect(depreciationRowState(row('2026-11-30'), { stoppedOn: null }, today)).toBe('Scheduled');
    expect(depreciationRowState(row('2026-11-30'), { stoppedOn: '2026-11-28' }, today)).toBe('Not posted');
    expect(depreciationRowState(row('2026-10-31'), { stoppedOn: '2026-11-28' }, today)).toBe('Due');
    const asset = (status: 'Pending' | 'Active' | 'Stopped' | 'Fully Depreciated', schedule: ReturnType<typeof row>[]) => ({
      status,
      stoppedOn: null,
      schedule: schedule as never,
    });
    expect(awaitingPosting(asset('Pending', []), today)).toBe(true);
    expect(awaitingPosting(asset('Active', [row('2026-10-31', true), row('2026-11-30')]), today)).toBe(false);
    expect(awaitingPosting(asset('Active', [row('2026-10-31'), row('2026-11-30')]), today)).toBe(true);
  });
});
