import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The benchmarks document each suite writes its own `## ` section of. */
export const BENCHMARKS_DOC = resolve(import.meta.dirname, '..', 'docs', 'benchmarks.md');

const KEPT_START =
  '<!-- written by hand: the bench keeps what is between these lines when it rewrites the section -->';
const KEPT_END = '<!-- end of the part written by hand -->';

/**
 * Where a suite's section holds prose written by hand (what changed since an earlier run and why, a
 * reading of the numbers): a suite puts this in its text, and `writeDocSection` carries over what the
 * document has between the two lines (no `## ` heading inside). Empty the first time.
 */
export const HAND_WRITTEN = `${KEPT_START}\n${KEPT_END}`;

/** The hand-written part of a section's text (between the markers), or undefined when it has none. */
function keptPart(text: string): string | undefined {
  const start = text.indexOf(KEPT_START);
  const end = text.indexOf(KEPT_END, start);
  return start < 0 || end < 0 ? undefined : text.slice(start, end + KEPT_END.length);
}

/**
 * Replaces the section headed `heading` (up to the next `## `), or appends it; other sections stay as
 * they are, and so does the section's hand-written part (HAND_WRITTEN) when the new text has its place.
 */
export function writeDocSection(heading: string, text: string, doc = BENCHMARKS_DOC): void {
  const current = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(`${heading}\n`);
  if (start < 0) {
    writeFileSync(doc, `${current.trimEnd()}\n\n${text}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  const old = current.slice(start, next < 0 ? undefined : next + 1);
  const kept = keptPart(old);
  const written = kept && text.includes(HAND_WRITTEN) ? text.replace(HAND_WRITTEN, () => kept) : text;
  const rest = next < 0 ? '' : current.slice(next + 1);
  writeFileSync(doc, `${current.slice(0, start)}${written}${rest ? `\n${rest}` : ''}`);
}

/** The comment lines that open and close the generated block `name`. */
export const blockMarkers = (name: string) => ({
  begin: `<!-- ${name}: generated, rewritten by each run — write prose outside this block -->`,
  end: `<!-- end of ${name} -->`,
});

/**
 * Replaces only what lies between the markers of block `name` in section `heading`, so hand-written
 * prose around the block (before/after comparisons, method notes) survives a re-run. A section
 * without the markers is written whole, with them (`writeDocSection`).
 */
export function writeDocBlock(heading: string, name: string, text: string, doc = BENCHMARKS_DOC): void {
  const { begin, end } = blockMarkers(name);
  const current = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
  const start = current.indexOf(`${heading}\n`);
  const next = start < 0 ? -1 : current.indexOf('\n## ', start + heading.length);
  const section = start < 0 ? '' : current.slice(start, next < 0 ? undefined : next);
  const from = section.indexOf(begin);
  const to = section.indexOf(end, from);
  if (from < 0 || to < 0) {
    writeDocSection(heading, `${heading}\n\n${begin}\n${text.trimEnd()}\n${end}\n`, doc);
    return;
  }
  const at = start + from + begin.length;
  writeFileSync(doc, `${current.slice(0, at)}\n${text.trimEnd()}\n${current.slice(start + to)}`);
}
