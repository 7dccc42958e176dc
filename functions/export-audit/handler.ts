import { ENDPOINTS } from '@pyb/contracts';
import { exportAudit } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';

export const handler = httpHandler('export-audit', ENDPOINTS['export-audit'], ({ context, actor, params }) =>
  exportAudit(useCases(context, keysOf(context)), actor, params),
);
