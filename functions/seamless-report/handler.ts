import { seamlessReportContract } from '@pyb/contracts';
import { getSeamlessReport } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { seamlessReportRoute } from '../src/routes';

export const handler = httpHandler(
  seamlessReportRoute,
  seamlessReportContract,
  ({ context, actor, params }) => getSeamlessReport(useCases(context), actor, params),
);
