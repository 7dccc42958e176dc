/**
 * The cadence state machine's OpenShoe Task (@pyb/cadence definition.ts): opens a cadence table's
 * next shoe (the core's 'shoe' step, openShoe), and nothing else. Its own function so that drawing
 * and sealing a seed (GenerateRandom, Encrypt) stays with a shoe opener that unseals none (K1,
 * docs/provably-fair.md); cadence-step, which deals and closes shoes (Decrypt), cannot seal.
 */
import { type CadenceState, CadenceStepError, runCadenceStep } from '@pyb/core/use-cases';
import { beaconOf } from '../../src/beacon';
import { appContext, useCases } from '../../src/context';
import { keysOf } from '../../src/keys';
import { publishingTable } from '../../src/live';
import { rotationStamperOf } from '../../src/time-stamps';

export interface CadenceOpenShoeEvent {
  step: string;
  state: CadenceState;
}

export async function handler(event: CadenceOpenShoeEvent): Promise<CadenceState> {
  if (event?.step !== 'shoe')
    throw new CadenceStepError(
      'INVALID_INPUT',
      `cadence-open-shoe runs the shoe step only, not ${event?.step}`,
    );
  const context = appContext();
  const ctx = useCases(context, keysOf(context), {
    beacon: beaconOf(context),
    timeStamper: rotationStamperOf(context),
  });
  // A shoe opened: the table's watchers are told, as open-shoe tells them.
  const state = await runCadenceStep(ctx, 'shoe', event.state);
  return publishingTable(context, state.tableId, state);
}
