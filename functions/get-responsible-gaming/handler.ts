import { ENDPOINTS } from '@pyb/contracts';
import { getResponsibleGaming } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';

export const handler = httpHandler(
  'get-responsible-gaming',
  ENDPOINTS['get-responsible-gaming'],
  ({ context, actor, params }) => getResponsibleGaming(useCases(context), actor, params),
);
