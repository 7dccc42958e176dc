/**
 * Writes test/fixtures/shoe-v3-vectors.json (docs/provably-fair.md §15.10) and prints the doc's blocks.
 * v3-vectors.test.ts checks that the checked-in file is what this writes (as parsed JSON: biome
 * formats the file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildV3Fixture, renderV3Vector } from './v3-vectors';

const vectors = buildV3Fixture();
const dir = new URL('./fixtures/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('shoe-v3-vectors.json', dir), `${JSON.stringify(vectors, null, 2)}\n`);
for (const v of vectors) console.log(`${v.input.name}\n${renderV3Vector(v.expected)}\n`);
