/** Writes test/fixtures/shoe-v3-vectors.json (docs/provably-fair.md §15.9) and prints the doc's blocks. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { computeV3Vector, renderV3Vector, V3_VECTOR_INPUTS } from './v3-vectors';

const vectors = V3_VECTOR_INPUTS.map((input) => ({ input, expected: computeV3Vector(input) }));
const dir = new URL('./fixtures/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('shoe-v3-vectors.json', dir), `${JSON.stringify(vectors, null, 2)}\n`);
for (const v of vectors) console.log(`${v.input.name}\n${renderV3Vector(v.expected)}\n`);
