import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The benchmarks document each suite writes its own `## ` section of. */
export const BENCHMARKS_DOC = resolve(import.meta.dirname, '..', 'docs', 'benchmarks.md');

/** Replaces the section headed `heading` (up to the next `## `), or appends it; other sections stay as they are. */
export function writeDocSection(heading: string, text: string, doc = BENCHMARKS_DOC): void {
  const current = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(`${heading}\n`);
  if (start < 0) {
    writeFileSync(doc, `${current.trimEnd()}\n\n${text}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  const rest = next < 0 ? '' : current.slice(next + 1);
  writeFileSync(doc, `${current.slice(0, start)}${text}${rest ? `\n${rest}` : ''}`);
}
