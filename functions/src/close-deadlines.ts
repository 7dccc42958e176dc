import type { CloseDeadlines } from '@pyb/core';
import { createCloseDeadlines } from '@pyb/scheduler';
import type { AppContext } from './context';

/**
 * Where an ended shoe's close deadline is scheduled (EventBridge Scheduler on AWS, recorded only in
 * dev), built on first use from the context's environment: CLOSE_DEADLINE_* (@pyb/scheduler). Only
 * the function that ends shoes (resolve-round) imports this module.
 */
export function closeDeadlinesOf(context: AppContext): CloseDeadlines {
  context.closeDeadlines ??= createCloseDeadlines(context.env);
  return context.closeDeadlines;
}
