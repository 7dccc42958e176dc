import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blocksOf, findings, samplePattern } from '../tour/markdown';

/** scripts/ci-tour reads the tours out of the docs: what it takes for a sample, and what fails a block. */
const doc = [
  '# Doc',
  '## Tour',
  'Text.',
  '```sh',
  'curl -s $API/a | jq -c .   # a comment on a call: not a sample',
  '# {"stake":1200,"balance":…}   # the reader\'s note',
  'curl -s $API/b',
  '# e.g. {"winner":"BANKER",',
  '#  "player":6}',
  '# {"status":422,"code":"BET_PLAYER_AND_BANKER"}',
  '```',
  '```js',
  'not shell',
  '```',
  '## Next',
  '```sh',
  'not in the tour',
  '```',
].join('\n');

describe('the tour blocks of a doc', () => {
  const [block, ...more] = blocksOf(doc, 'doc.md', '## Tour');

  it('takes the sh blocks of the section only, with their whole-line comments as samples', () => {
    expect(more).toEqual([]);
    expect(block!.line).toBe(4);
    expect(block!.samples.map((s) => [s.line, s.example])).toEqual([
      [6, false],
      [8, true],
      [10, false],
    ]);
    expect(block!.samples[1]!.text).toBe('e.g. {"winner":"BANKER",\n"player":6}');
    expect([...block!.refusals]).toEqual([422]);
  });

  it('matches a sample to a whole line, … for anything, the trailing note left out', () => {
    const pattern = samplePattern('{"stake":1200,"balance":…}   # the reader\'s note');
    expect(pattern.test('{"stake":1200,"balance":98800}')).toBe(true);
    expect(pattern.test('{"stake":1000,"balance":98800}')).toBe(false);
    expect(pattern.test('x {"stake":1200,"balance":1}')).toBe(false);
  });

  it('passes an output that shows the samples in order, and the refusal they show', () => {
    const output = [
      '{"stake":1200,"balance":98800}',
      'anything',
      '{"status":422,"code":"BET_PLAYER_AND_BANKER"}',
    ];
    expect(findings(block!, output, [200, 422])).toEqual([]);
  });

  it('fails a drifted sample, samples out of order, and a refusal the block does not show', () => {
    expect(
      findings(
        block!,
        ['{"stake":1000,"balance":99000}', '{"status":422,"code":"BET_PLAYER_AND_BANKER"}'],
        [],
      ),
    ).toEqual([
      'doc.md:6: no output line matches the sample {"stake":1200,"balance":…}   # the reader\'s note',
    ]);
    expect(
      findings(block!, ['{"status":422,"code":"BET_PLAYER_AND_BANKER"}', '{"stake":1200,"balance":1}'], []),
    ).toHaveLength(1);
    expect(
      findings(
        block!,
        ['{"stake":1200,"balance":1}', '{"status":422,"code":"BET_PLAYER_AND_BANKER"}'],
        [409],
      ),
    ).toEqual(['doc.md:4: a call of the block was answered 409, which the block does not show']);
  });

  it('finds the two documented tours, each with samples it checks', () => {
    const root = join(import.meta.dirname, '../..');
    for (const [file, heading] of [
      ['README.md', '## A short tour'],
      ['docs/api.md', '## A whole shoe in curl'],
    ] as const) {
      const blocks = blocksOf(readFileSync(join(root, file), 'utf8'), file, heading);
      expect(blocks.length, file).toBeGreaterThan(3);
      expect(blocks.flatMap((b) => b.samples).filter((s) => !s.example).length, file).toBeGreaterThan(5);
    }
  });
});
