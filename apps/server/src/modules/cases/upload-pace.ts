/**
 * Slow uploads stopped (issue 16, "slow-loris"): an upload whose client sends fewer than
 * `minBytesPerSecond` over a whole window is ended with 408, so a client that trickles a body
 * (or sends headers and then nothing) cannot hold a connection, a multipart parser and a
 * storage write open for ever.
 *
 * The pace is measured on the socket (`bytesRead`), i.e. what the client actually delivered.
 * A window in which the server itself paused reading (back-pressure from storage, or the
 * service busy checking the genome file before it reads on) is not held against the client.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { ErrorCode } from '@rarelens/contract';
import { AppError } from '../../errors.ts';

export interface UploadPaceOptions {
  /** Length of one measuring window, in milliseconds. */
  windowMs: number;
  /** Slowest accepted average over a window, in bytes per second. */
  minBytesPerSecond: number;
}

export class UploadStalledError extends AppError {
  constructor(options: UploadPaceOptions, receivedBytes: number) {
    const seconds = Math.round(options.windowMs / 1000);
    super(
      408,
      ErrorCode.uploadStalled,
      `The upload was too slow and was stopped: ${receivedBytes} bytes arrived in the last ${seconds} s, ` +
        `under the minimum of ${options.minBytesPerSecond} bytes per second. Nothing was kept; check the ` +
        'connection and upload again.',
    );
    this.name = 'UploadStalledError';
  }
}

export interface UploadPaceGuard {
  /** Rejects with UploadStalledError when a window is too slow; never resolves. */
  readonly stalled: Promise<never>;
  /** The file stream being read now: destroyed with the error when the upload stalls. */
  track(file: Readable): void;
  stop(): void;
}

export function guardUploadPace(request: IncomingMessage, options: UploadPaceOptions): UploadPaceGuard {
  const socket = request.socket;
  let last = socket.bytesRead;
  // Whether the server paused reading at any time during the current window.
  let pausedInWindow = request.isPaused();
  let current: Readable | undefined;
  let reject!: (error: Error) => void;
  const stalled = new Promise<never>((_resolve, rej) => {
    reject = rej;
  });
  // The rejection is observed by whoever races it; keep an unobserved one from crashing the process.
  stalled.catch(() => undefined);

  const onPause = () => {
    pausedInWindow = true;
  };
  request.on('pause', onPause);

  const timer = setInterval(() => {
    const now = socket.bytesRead;
    const received = now - last;
    last = now;
    const serverPaused = pausedInWindow || request.isPaused() || (current?.isPaused() ?? false);
    pausedInWindow = request.isPaused();
    if (serverPaused || request.complete) return;
    if (received >= (options.minBytesPerSecond * options.windowMs) / 1000) return;
    const error = new UploadStalledError(options, received);
    stop();
    current?.destroy(error);
    reject(error);
  }, options.windowMs);
  timer.unref();

  function stop(): void {
    clearInterval(timer);
    request.off('pause', onPause);
  }

  return {
    stalled,
    track(file) {
      current = file;
      file.on('pause', onPause);
    },
    stop,
  };
}

/** Races each step of an async iterator with the guard, so a stalled upload ends the loop. */
export async function* pacedParts<T>(parts: AsyncIterable<T>, guard: UploadPaceGuard): AsyncGenerator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), guard.stalled]);
      if (step.done) return;
      yield step.value;
    }
  } finally {
    // Not awaited: the multipart iterator's return() waits for the rest of a body that a
    // stalled client never sends.
    iterator.return?.().catch(() => undefined);
  }
}
