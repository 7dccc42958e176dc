import { ENDPOINTS } from '@pyb/contracts';
import { httpHandler } from '../src/http';

export const handler = httpHandler('export-audit', ENDPOINTS['export-audit'], ({ context, actor, params }) =>
  context.core.exportAudit(actor, params),
);
