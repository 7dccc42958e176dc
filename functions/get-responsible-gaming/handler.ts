import { getResponsibleGamingContract } from '@pyb/contracts';
import { getResponsibleGaming } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getResponsibleGamingRoute } from '../src/routes';

export const handler = httpHandler(
  getResponsibleGamingRoute,
  getResponsibleGamingContract,
  ({ context, actor, params }) => getResponsibleGaming(useCases(context), actor, params),
);
