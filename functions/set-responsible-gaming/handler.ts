import { setResponsibleGamingContract } from '@pyb/contracts';
import { revokePlayerSessions } from '@pyb/core';
import { setResponsibleGamingAndCancel } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { setResponsibleGamingRoute } from '../src/routes';
import { sessionsOf } from '../src/sessions';

export const handler = httpHandler(
  setResponsibleGamingRoute,
  setResponsibleGamingContract,
  async ({ context, actor, params, body, idempotencyKey }) => {
    // An exclusion cancels the player's open bets too (packages/core/src/rounds/exclusion.ts).
    const { cancelledRounds: _, ...status } = await setResponsibleGamingAndCancel(useCases(context), actor, {
      ...params,
      ...body,
      idempotencyKey,
    });
    // A self-exclusion or cooling-off ends the player's sessions at once (his browser's tokens).
    if (body.exclusion) await revokePlayerSessions(sessionsOf(context), actor, params);
    return status;
  },
);
