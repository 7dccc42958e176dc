import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../src/lazily';

describe('onFirstUse', () => {
  it('loads once, on the first call, and every caller (concurrent or later) shares the load', async () => {
    let loads = 0;
    const get = onFirstUse(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    const c = await get();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it('does not keep a failed load: the next call tries again', async () => {
    let loads = 0;
    const get = onFirstUse(async () => {
      loads++;
      if (loads === 1) throw new Error('no network');
      return 'client';
    });
    await expect(get()).rejects.toThrow('no network');
    expect(await get()).toBe('client');
    expect(await get()).toBe('client');
    expect(loads).toBe(2);
  });

  it('a load that throws before returning its promise is a failed load too (a rejection, not a throw)', async () => {
    let loads = 0;
    const get = onFirstUse((): Promise<string> => {
      loads++;
      if (loads === 1) throw new Error('bad config');
      return Promise.resolve('ok');
    });
    const first = get();
    await expect(first).rejects.toThrow('bad config');
    expect(await get()).toBe('ok');
  });
});
