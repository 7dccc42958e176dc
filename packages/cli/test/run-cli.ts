import { Readable } from 'node:stream';
import { main } from '../src/main';

/** Runs the CLI's main() in-process with captured output and an empty stdin. */
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
