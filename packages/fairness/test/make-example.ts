/**
 * Writes examples/shoe-bundle.json: a whole midi shoe (6 decks) with one voided round, signed by a
 * throwaway P-256 key (only its public half is kept). Run: npx tsx packages/fairness/test/make-example.ts
 */
import { writeFileSync } from 'node:fs';
import { tablePreset } from '@pyb/engine';
import { hexToBytes } from '../src/index';
import { demoBundle } from './helpers';

const bundle = await demoBundle({
  serverSeed: hexToBytes('3b2f1c7d9e8a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c'),
  clientSeed: 'example: a player typed this before the first card',
  shoeId: 'shoe-example-1',
  tableId: 'table-midi-1',
  operatorId: 'op-example',
  table: tablePreset('midi'),
  createdAt: '2025-03-01T18:00:00.000Z',
  keyId: 'local:example',
  voided: [4],
});
const path = new URL('../examples/shoe-bundle.json', import.meta.url);
writeFileSync(path, `${JSON.stringify(bundle, null, 1)}\n`);
console.log(`wrote ${path.pathname}: ${bundle.rounds.length} rounds, ${bundle.audit.events.length} events`);
