import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadingBarController, type LoadingBarState } from './loading-bar.tsx';

let states: LoadingBarState[] = [];
let bar: LoadingBarController;
const last = () => states[states.length - 1];

beforeEach(() => {
  vi.useFakeTimers();
  states = [];
  bar = new LoadingBarController((s) => states.push(s));
});
afterEach(() => {
  bar.dispose();
  vi.useRealTimers();
});

describe('LoadingBarController', () => {
  it('stays hidden for work shorter than the 200 ms throttle', () => {
    bar.start();
    vi.advanceTimersByTime(150);
    bar.finish();
    vi.advanceTimersByTime(2000);
    expect(states).toEqual([]);
  });

  it('appears after 200 ms and creeps forward without reaching 100 %', () => {
    bar.start();
    vi.advanceTimersByTime(199);
    expect(states).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(last()).toEqual({ isVisible: true, progress: 0 });
    vi.advanceTimersByTime(1000);
    const halfway = last()!.progress;
    expect(halfway).toBeGreaterThan(40);
    expect(halfway).toBeLessThan(60);
    vi.advanceTimersByTime(60_000);
    expect(last()!.progress).toBeLessThan(100);
  });

  it('completes, hides after 500 ms and resets 400 ms later', () => {
    bar.start();
    vi.advanceTimersByTime(700);
    bar.finish();
    expect(last()).toMatchObject({ isVisible: true, progress: 100 });
    vi.advanceTimersByTime(499);
    expect(last()!.isVisible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(last()).toEqual({ isVisible: false, progress: 100 });
    vi.advanceTimersByTime(400);
    expect(last()).toEqual({ isVisible: false, progress: 0 });
  });
});
