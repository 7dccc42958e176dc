/**
 * The documented tours as scripts (scripts/ci-tour): the ```sh blocks of a markdown section, and the
 * sample outputs they show. A sample is a whole-line comment of a block (`# {"stake":1200,…}`): the
 * block's output must hold a line it matches, in the order the samples come. In a sample `…` (or
 * `...`) stands for anything; a trailing `   # comment` is the reader's, not output; a sample that
 * starts `e.g.` depends on the cards dealt and is not checked; a line indented after `#  ` continues
 * the sample above it (a long line wrapped for the page).
 */

export interface Sample {
  /** The line of the markdown file (1-based) where the sample starts. */
  line: number;
  text: string;
  /** Depends on the deal (`# e.g. …`): shown, not checked. */
  example: boolean;
}

export interface Block {
  doc: string;
  /** The line of the opening fence. */
  line: number;
  code: string;
  samples: Sample[];
  /** HTTP statuses of 400 and above the block shows in its samples (`"status":422`): expected refusals. */
  refusals: Set<number>;
}

/** The ```sh blocks between the heading `from` and the next heading of the same or a higher level. */
export function blocksOf(markdown: string, doc: string, from: string): Block[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === from);
  if (start < 0) throw new Error(`${doc}: no heading "${from}"`);
  const level = from.match(/^#+/)![0].length;
  const blocks: Block[] = [];
  let open: { line: number; body: string[] } | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!open) {
      const heading = line.match(/^(#+) /);
      if (heading && heading[1]!.length <= level) break;
      if (line.trim() === '```sh') open = { line: i + 1, body: [] };
      continue;
    }
    if (line.trim() === '```') {
      blocks.push(block(doc, open.line, open.body));
      open = undefined;
    } else open.body.push(line);
  }
  if (open) throw new Error(`${doc}:${open.line}: a block is not closed`);
  return blocks;
}

function block(doc: string, fence: number, body: string[]): Block {
  const samples: Sample[] = [];
  body.forEach((line, i) => {
    const comment = line.match(/^#( +)(.*)$/);
    if (!comment) return;
    const previous = samples.at(-1);
    if (
      comment[1]!.length > 1 &&
      previous &&
      previous.line + previous.text.split('\n').length === fence + 1 + i
    ) {
      previous.text += `\n${comment[2]!}`;
      return;
    }
    const text = comment[2]!;
    samples.push({ line: fence + 1 + i, text, example: text.startsWith('e.g.') });
  });
  const refusals = new Set<number>();
  for (const s of samples)
    for (const m of s.text.matchAll(/"status":([45]\d\d)\b/g)) refusals.add(Number(m[1]));
  return { doc, line: fence, code: body.join('\n'), samples, refusals };
}

/** What a sample matches: a whole line of output, `…` for anything. */
export function samplePattern(text: string): RegExp {
  const lines = text.split('\n').map((l) => l.trim());
  const joined = lines.join('').replace(/\s{2,}#.*$/, '');
  const literal = joined
    .split(/…|\.\.\./)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${literal}$`);
}

/** What is wrong with a block's output: samples not found in order, refusals it does not show. */
export function findings(b: Block, output: string[], statuses: number[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const sample of b.samples) {
    if (sample.example) continue;
    const pattern = samplePattern(sample.text);
    const found = output.findIndex((l, i) => i >= at && pattern.test(l.replace(/\r$/, '')));
    if (found < 0) out.push(`${b.doc}:${sample.line}: no output line matches the sample ${sample.text}`);
    else at = found + 1;
  }
  for (const status of statuses) {
    if (status >= 400 && !b.refusals.has(status)) {
      out.push(
        `${b.doc}:${b.line}: a call of the block was answered ${status}, which the block does not show`,
      );
    } else if (status === 0) out.push(`${b.doc}:${b.line}: a call of the block got no answer`);
  }
  return out;
}
