import { archiveFromEnv } from '@pyb/archive';
import { exportAudit } from '@pyb/core/use-cases';
import { archiveStreamHandler } from '../../src/archive-stream';
import { appContext, useCases } from '../../src/context';
import { keysOf } from '../../src/keys';

/** Not an HTTP route: the game table's stream invokes it for shoes reaching CLOSED (infra/src/retention.ts). */
const config = () => archiveFromEnv();
let archive: ReturnType<typeof config> | undefined;

export const handler = archiveStreamHandler(() => {
  archive ??= config();
  const context = appContext();
  const { clock } = context;
  return {
    exportAudit: (actor, input) => exportAudit(useCases(context, keysOf(context)), actor, input),
    archive: archive.archive,
    retentionDays: archive.retentionDays,
    now: () => clock.now(),
  };
});
