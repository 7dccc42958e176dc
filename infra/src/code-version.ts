import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './esbuild-options';

/**
 * The build every shoe statement names (`codeVersion`): `git:<commit>` of the source synthesised, with
 * `+dirty` when the working tree had changes, or CODE_VERSION when the build sets it (a CI build id).
 * Regulators match it with the release the operator certified.
 */
export function codeVersion(env: Record<string, string | undefined> = process.env): string {
  if (env.CODE_VERSION) return env.CODE_VERSION;
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const commit = git('rev-parse', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `git:${commit}${dirty ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}
