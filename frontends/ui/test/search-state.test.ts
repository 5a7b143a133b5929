import { describe, expect, it } from 'vitest';
import { searchShown, searchWritten, trackSearch } from '../src/search-state';

// The order of events the /transactions filters met: a write, then a render that still shows an older URL, then the
// router catching up one navigation at a time, or a URL from elsewhere (back, forward, a link).
describe('the query string a screen bases its next change on', () => {
  it('is its own last write while the router has not shown it', () => {
    let t = trackSearch('tab=all&flow=inflow&description=coffee');
    t = searchWritten(t, 'tab=all');
    // A render still showing the old URL (a keystroke during the pending navigation) does not move it back.
    expect(t.latest).toBe('tab=all');
    t = searchShown(t, 'tab=all');
    expect(t).toEqual({ latest: 'tab=all', pending: [] });
  });

  it('stays on the last of several writes while the earlier ones land', () => {
    let t = trackSearch('tab=all');
    t = searchWritten(t, 'tab=all&flow=inflow');
    t = searchWritten(t, 'tab=all&flow=inflow&description=c');
    t = searchShown(t, 'tab=all&flow=inflow');
    expect(t.latest).toBe('tab=all&flow=inflow&description=c');
    expect(t.pending).toEqual(['tab=all&flow=inflow&description=c']);
    t = searchShown(t, 'tab=all&flow=inflow&description=c');
    expect(t).toEqual({ latest: 'tab=all&flow=inflow&description=c', pending: [] });
  });

  it('skips a write the router dropped for a later one', () => {
    let t = trackSearch('tab=all');
    t = searchWritten(t, 'tab=all&flow=inflow');
    t = searchWritten(t, 'tab=all&flow=outflow');
    t = searchShown(t, 'tab=all&flow=outflow');
    expect(t).toEqual({ latest: 'tab=all&flow=outflow', pending: [] });
  });

  it('takes a URL from elsewhere (back, a link) as the new base, dropping writes not shown', () => {
    let t = trackSearch('tab=all&flow=inflow');
    t = searchShown(t, 'tab=review');
    expect(t).toEqual({ latest: 'tab=review', pending: [] });
    t = searchWritten(t, 'tab=review&flow=outflow');
    t = searchShown(t, 'tab=all&flow=inflow');
    expect(t).toEqual({ latest: 'tab=all&flow=inflow', pending: [] });
  });

  it('does not move when the router shows what it already is', () => {
    const t = trackSearch('tab=all');
    expect(searchShown(t, 'tab=all')).toBe(t);
  });
});
