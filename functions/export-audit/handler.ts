import { exportAuditContract } from '@pyb/contracts';
import { exportAudit } from '@pyb/core/use-cases';
import { useCases } from '../src/context';
import { httpHandler } from '../src/http';
import { keysOf } from '../src/keys';
import { exportAuditRoute } from '../src/routes';

export const handler = httpHandler(exportAuditRoute, exportAuditContract, ({ context, actor, params }) =>
  exportAudit(useCases(context, keysOf(context)), actor, params),
);
