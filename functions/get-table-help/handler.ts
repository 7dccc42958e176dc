import { getTableHelpContract } from '@pyb/contracts';
import { getTableHelp } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getTableHelpRoute } from '../src/routes';

// The use cases' context: the interrupted-game policy names the deadlines this deployment enforces.
export const handler = httpHandler(getTableHelpRoute, getTableHelpContract, ({ context, actor, params }) =>
  getTableHelp(useCases(context), actor, params),
);
