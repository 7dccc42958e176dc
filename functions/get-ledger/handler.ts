import { getLedgerContract } from '@pyb/contracts';
import { getLedger } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { getLedgerRoute } from '../src/routes';

export const handler = httpHandler(getLedgerRoute, getLedgerContract, ({ context, actor, params, query }) =>
  getLedger(useCases(context), actor, { ...params, ...query }),
);
