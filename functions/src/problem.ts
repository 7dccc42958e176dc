import type { FieldError, Problem, ProblemCode } from '@pyb/contracts';
import { AuthenticationError, DomainError, deadlineExceeded, type ErrorKind } from '@pyb/core';
import * as z from 'zod';

/**
 * Every refusal leaves as RFC 9457 problem+json with a stable `code` (docs/api.md lists them). This
 * module is the one place that turns an error into a status and a code.
 */
export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** Machine-readable facts about the refusal (e.g. the limit a bet broke). */
    readonly details?: Record<string, unknown>,
  ) {
    super(detail);
  }
}

const KIND_STATUS: Record<ErrorKind, number> = {
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  INVALID: 400,
  CONFLICT: 409,
  UNPROCESSABLE: 422,
  INSUFFICIENT_FUNDS: 422,
  UNAVAILABLE: 503,
  LOCKED: 423,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  423: 'Locked',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface ProblemResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Field errors of a zod failure, for the problem's `errors` list. */
export function fieldErrors(error: z.ZodError, where: FieldError['in']): FieldError[] {
  return error.issues.slice(0, 20).map((issue) => ({
    in: where,
    path: issue.path.map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
}

export function validationProblem(error: z.ZodError, where: FieldError['in']): HttpProblem {
  const errors = fieldErrors(error, where);
  const first = errors[0];
  const detail = first
    ? `${where}${first.path ? ` field "${first.path}"` : ''}: ${first.message}`
    : `invalid ${where}`;
  return new HttpProblem(400, 'VALIDATION_FAILED', detail, errors);
}

/** Status, code and detail of any error; unknown errors are a 500 whose detail says nothing inside. */
export function classify(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof AuthenticationError) {
    return new HttpProblem(401, error.code, error.message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
  if (error instanceof DomainError) {
    const retryAfter = error.details?.retryAfterSeconds;
    return new HttpProblem(
      KIND_STATUS[error.kind] ?? 500,
      error.code,
      error.message,
      undefined,
      // A refusal for now (the beacon round not published yet): when to try again.
      typeof retryAfter === 'number'
        ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) }
        : undefined,
      error.details,
    );
  }
  // A rule the engine refuses (bets) that a use case let through unwrapped is still the caller's fault.
  if (
    error instanceof Error &&
    error.name === 'BetRuleError' &&
    typeof (error as { code?: unknown }).code === 'string'
  ) {
    return new HttpProblem(422, (error as unknown as { code: ProblemCode }).code, error.message);
  }
  // A use case validating a derived value (e.g. a table configuration after merging a preset).
  if (error instanceof z.ZodError) return validationProblem(error, 'body');
  // A timeout (middy's, the AWS SDK's): the outcome is not known, a retry with the same key settles it.
  if (error instanceof Error && error.name === 'TimeoutError') return deadlineProblem();
  return new HttpProblem(
    500,
    'INTERNAL_ERROR',
    'something went wrong on our side; the request id identifies it',
  );
}

/** 503 DEADLINE_EXCEEDED with its Retry-After (core's `deadlineExceeded`). */
export const deadlineProblem = (): HttpProblem => classify(deadlineExceeded());

export function problemResponse(problem: HttpProblem, requestId: string, path: string): ProblemResponse {
  const body: Problem = {
    type: `urn:pyb:problem:${problem.code}`,
    title: TITLES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.detail,
    instance: `${path}#${requestId}`,
    code: problem.code,
    requestId,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...(problem.details ? { details: problem.details } : {}),
  };
  return {
    statusCode: problem.status,
    headers: { 'Content-Type': 'application/problem+json', ...problem.headers },
    body: JSON.stringify(body),
  };
}
