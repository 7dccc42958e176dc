import { type Deadline, deadlineExceeded } from '@pyb/core';
import type { Context } from 'aws-lambda';

/**
 * Time kept back from a function's remaining time for the answer itself: release the request's
 * Idempotency-Key, write the problem, log. The use cases' deadline is this much before Lambda's.
 */
export const ANSWER_RESERVE_MS = 1_000;

/** One invocation's deadline (core's Deadline), with what the edge does with it. */
export interface InvocationDeadline extends Deadline {
  /** Rejects with DEADLINE_EXCEEDED when the time is up (and the signal aborts): race the work with it. */
  readonly expired: Promise<never>;
  /** How long the invocation can last at most from now (an in-flight lock need not outlive it). */
  lambdaRemainingMs(): number;
  /** The answer is given: aborts the signal (nothing more is written), no timer left behind. */
  end(): void;
}

/**
 * The deadline of one invocation from Lambda's context (the local server provides
 * `getRemainingTimeInMillis` too): due ANSWER_RESERVE_MS before the function's end, and aborted
 * then or when middy's own early timeout fires (`middySignal`), whichever is first. No
 * `getRemainingTimeInMillis` (a test calling a handler bare): no deadline, only middy's signal.
 */
export function invocationDeadline(lambda: Partial<Context>, middySignal?: AbortSignal): InvocationDeadline {
  const remaining = lambda.getRemainingTimeInMillis?.bind(lambda);
  const controller = new AbortController();
  const expired = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(deadlineExceeded()), { once: true });
  });
  expired.catch(() => undefined); // raced by the caller; never an unhandled rejection
  const abort = () => controller.abort();
  middySignal?.addEventListener('abort', abort, { once: true });
  const remainingMs = remaining ? () => remaining() - ANSWER_RESERVE_MS : () => Number.POSITIVE_INFINITY;
  const timer = remaining ? setTimeout(abort, Math.max(0, remainingMs())) : undefined;
  return {
    remainingMs,
    signal: controller.signal,
    expired,
    lambdaRemainingMs: remaining ?? (() => Number.POSITIVE_INFINITY),
    end: () => {
      clearTimeout(timer);
      middySignal?.removeEventListener('abort', abort);
      abort();
    },
  };
}
