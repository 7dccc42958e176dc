import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HAND_WRITTEN, writeDocSection } from '../doc-section';

const dirs: string[] = [];
function doc(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pyb-doc-section-'));
  dirs.push(dir);
  const file = join(dir, 'benchmarks.md');
  writeFileSync(file, text);
  return file;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const generated = (n: number) => `## API\n\nRun ${n}.\n\n${HAND_WRITTEN}\n\nTable ${n}.\n`;

describe('writeDocSection', () => {
  it('replaces its own section and leaves the others as they are', () => {
    const file = doc('# Benchmarks\n\n## Engine\n\nfast\n\n## API\n\nold\n\n## RNG\n\nsee rng.md\n');
    writeDocSection('## API', '## API\n\nnew\n', file);
    expect(readFileSync(file, 'utf8')).toBe(
      '# Benchmarks\n\n## Engine\n\nfast\n\n## API\n\nnew\n\n## RNG\n\nsee rng.md\n',
    );
  });

  it('appends the section when the document has none', () => {
    const file = doc('# Benchmarks\n\n## Engine\n\nfast\n');
    writeDocSection('## API', generated(1), file);
    expect(readFileSync(file, 'utf8')).toBe(`# Benchmarks\n\n## Engine\n\nfast\n\n${generated(1)}`);
  });

  it('keeps the prose written by hand between the markers across reruns', () => {
    const file = doc(`# Benchmarks\n\n${generated(1)}\n## RNG\n\nsee rng.md\n`);
    const [start, end] = HAND_WRITTEN.split('\n');
    const prose = 'Since the last run the bet reads the operator record (cached).\n\nA second paragraph.';
    writeFileSync(file, readFileSync(file, 'utf8').replace(HAND_WRITTEN, `${start}\n${prose}\n${end}`));
    writeDocSection('## API', generated(2), file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('Run 2.');
    expect(text).toContain('Table 2.');
    expect(text).not.toContain('Run 1.');
    expect(text).toContain(`${start}\n${prose}\n${end}\n\nTable 2.`);
    expect(text.endsWith('## RNG\n\nsee rng.md\n')).toBe(true);
  });

  it('carries nothing over when the new text has no place for it', () => {
    const [start, end] = HAND_WRITTEN.split('\n');
    const file = doc(`# Benchmarks\n\n## API\n\n${start}\nold prose\n${end}\n`);
    writeDocSection('## API', '## API\n\nnew\n', file);
    expect(readFileSync(file, 'utf8')).toBe('# Benchmarks\n\n## API\n\nnew\n');
  });
});
