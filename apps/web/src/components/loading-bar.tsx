import { Constants } from '@rarelens/contract';
import { useEffect, useRef, useState } from 'react';

export type LoadingBarState = { progress: number; isVisible: boolean };

type Timers = Pick<typeof globalThis, 'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval'>;

const tickMs = 100;

/**
 * The top loading bar's timing (§9): it appears only if work lasts longer than the throttle
 * (200 ms), creeps towards 100 % over the estimated duration (2000 ms) without reaching it,
 * completes when the work ends, fades after the hide delay (500 ms) and resets to 0 after the
 * reset delay (400 ms).
 */
export class LoadingBarController {
  private state: LoadingBarState = { progress: 0, isVisible: false };
  private throttle: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private hide: ReturnType<typeof setTimeout> | undefined;
  private reset: ReturnType<typeof setTimeout> | undefined;
  private isRunning = false;

  constructor(
    private readonly onChange: (state: LoadingBarState) => void,
    private readonly timers: Timers = globalThis,
    private readonly options = Constants.loadingBar,
  ) {}

  private set(next: Partial<LoadingBarState>) {
    this.state = { ...this.state, ...next };
    this.onChange(this.state);
  }

  start(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    this.timers.clearTimeout(this.hide);
    this.timers.clearTimeout(this.reset);
    if (this.state.isVisible) {
      this.beginTicking();
      return;
    }
    this.throttle = this.timers.setTimeout(() => {
      this.throttle = undefined;
      this.set({ isVisible: true, progress: 0 });
      this.beginTicking();
    }, this.options.throttleMs);
  }

  private beginTicking() {
    this.timers.clearInterval(this.ticker);
    const step = (tickMs / this.options.estimatedMs) * 100;
    this.ticker = this.timers.setInterval(() => {
      // Linear up to 60 %, then slowing down so it never claims to be done early.
      const p = this.state.progress;
      const next = p < 60 ? p + step : p + ((95 - p) * step) / 50;
      this.set({ progress: Math.min(next, 95) });
    }, tickMs);
  }

  finish(): void {
    if (!this.isRunning) return;
    this.isRunning = false;
    this.timers.clearInterval(this.ticker);
    if (this.throttle !== undefined) {
      // Finished before the throttle elapsed: the bar never shows.
      this.timers.clearTimeout(this.throttle);
      this.throttle = undefined;
      return;
    }
    this.set({ progress: 100 });
    this.hide = this.timers.setTimeout(() => {
      this.set({ isVisible: false });
      this.reset = this.timers.setTimeout(() => this.set({ progress: 0 }), this.options.resetDelayMs);
    }, this.options.hideDelayMs);
  }

  dispose(): void {
    this.timers.clearTimeout(this.throttle);
    this.timers.clearInterval(this.ticker);
    this.timers.clearTimeout(this.hide);
    this.timers.clearTimeout(this.reset);
  }
}

/** A 3 px bar across the top of the window while `isActive` (navigations, fetches). */
export function LoadingBar({ isActive }: { isActive: boolean }) {
  const [state, setState] = useState<LoadingBarState>({ progress: 0, isVisible: false });
  const controller = useRef<LoadingBarController | null>(null);

  useEffect(() => {
    const c = new LoadingBarController(setState);
    controller.current = c;
    return () => c.dispose();
  }, []);

  useEffect(() => {
    if (isActive) controller.current?.start();
    else controller.current?.finish();
  }, [isActive]);

  return (
    <div
      aria-hidden="true"
      data-testid="loading-bar"
      className="pointer-events-none fixed inset-x-0 top-0 z-[60]"
      style={{ height: Constants.loadingBar.heightPx, opacity: state.isVisible ? 1 : 0, transition: 'opacity 300ms' }}
    >
      <div
        className="h-full bg-gradient-to-r from-accent-400 to-accent-600"
        style={{
          width: `${state.progress}%`,
          transition: state.progress === 0 ? 'none' : 'width 120ms linear',
        }}
      />
    </div>
  );
}
