import { getTableHelpContract } from '@pyb/contracts';
import { getTableHelp } from '@pyb/core/use-cases';
import { httpHandler } from '../src/http';
import { getTableHelpRoute } from '../src/routes';

export const handler = httpHandler(getTableHelpRoute, getTableHelpContract, ({ context, actor, params }) =>
  getTableHelp(context, actor, params),
);
