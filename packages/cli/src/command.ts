import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Where a command reads and writes (the real process streams, or test doubles). */
export interface CommandIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
}

/** One `baccarat` sub-command. `run` returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CommandIo): Promise<number>;
}

/** Bad command-line input: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, strict, with its errors turned into UsageError. */
export function parseOptions<O extends Options>(args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A whole number option within [min, max]. */
export function intOption(
  name: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replaceAll('_', ''));
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${value}")`);
  }
  return n;
}

export const jsonLine = (value: unknown): string =>
  `${JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`;
