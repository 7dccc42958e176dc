import { archiveFromEnv } from '@pyb/archive';
import { archiveStreamHandler } from '../../src/archive-stream';
import { appContext } from '../../src/context';

/** Not an HTTP route: the game table's stream invokes it for shoes reaching CLOSED (infra/src/retention.ts). */
const config = () => archiveFromEnv();
let archive: ReturnType<typeof config> | undefined;

export const handler = archiveStreamHandler(() => {
  archive ??= config();
  const { core, clock } = appContext();
  return {
    exportAudit: (actor, input) => core.exportAudit(actor, input),
    archive: archive.archive,
    retentionDays: archive.retentionDays,
    now: () => clock.now(),
  };
});
