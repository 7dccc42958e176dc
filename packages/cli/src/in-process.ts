import { Readable } from 'node:stream';
import { main } from './main';

/**
 * Runs `baccarat <args>` in this process with an empty stdin, as the bin would (bin/baccarat.mjs only loads TypeScript and
 * calls main): the exit code and what it printed. No process start, no TypeScript loader — what the
 * tests use, the bin itself being spawned where that is what is tested.
 */
export async function runCli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from([]),
  });
  return { code, stdout, stderr };
}
