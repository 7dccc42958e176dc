/**
 * Writes examples/shoe-bundle.json, its public proof examples/shoe-proof.json and the key that signed
 * them, examples/operator.pem: a whole midi shoe (6 decks) with one voided round, its order fixed by
 * drand quicknet round 5928395 (published 2024-03-16T11:29:09Z) and three contributed seeds, signed
 * by a throwaway P-256 key (only its public half is kept). Run: npx tsx packages/fairness/test/make-example.ts
 */
import { writeFileSync } from 'node:fs';
import { tablePreset } from '@pyb/engine';
import { hexToBytes, QUICKNET, shoeProof } from '../src/index';
import { demoBundle, testKey } from './helpers';

const key = testKey('local:example', '2024-03-01T00:00:00.000Z');
const bundle = await demoBundle({
  serverSeed: hexToBytes('3b2f1c7d9e8a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c'),
  shoeId: 'shoe-example-1',
  tableId: 'table-midi-1',
  operatorId: 'op-example',
  table: tablePreset('midi'),
  // Contributions close 4 s later, at 11:29:03.5; with a 5 s margin the order waits for round 5928395.
  createdAt: '2024-03-16T11:28:59.500Z',
  codeVersion: 'example',
  keys: [key],
  beacon: {
    network: QUICKNET,
    marginSeconds: 5,
    round: 5928395,
    signature:
      'a5d07c0071b4e386b3ae09206522253c68fefe8490ad59ecc44a7dd0d0745be91da5779e2247a82403fbc0cb9a34cb61',
  },
  voided: [4],
});
const write = (name: string, text: string) => {
  const path = new URL(`../examples/${name}`, import.meta.url);
  writeFileSync(path, text);
  return path.pathname;
};
write('shoe-bundle.json', `${JSON.stringify(bundle, null, 1)}\n`);
write('shoe-proof.json', `${JSON.stringify(shoeProof(bundle), null, 1)}\n`);
write('operator.pem', key.pem);
console.log(`wrote the example: ${bundle.rounds.length} rounds, ${bundle.audit.events.length} events`);
