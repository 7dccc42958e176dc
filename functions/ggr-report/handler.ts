import { ggrReportContract } from '@pyb/contracts';
import { ggrReport } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { ggrReportRoute } from '../src/routes';

export const handler = httpHandler(ggrReportRoute, ggrReportContract, ({ context, actor, params, query }) =>
  ggrReport(useCases(context), actor, { ...params, ...query }),
);
