/**
 * Is every closed shoe in the audit archive? The archiver writes each shoe's bundle once, when the
 * game table's stream shows it CLOSED (shoes/archive-shoe.ts); a stream record lost, a mapping
 * disabled or a DLQ left unread would leave a shoe out silently. This check walks the operator's
 * shoes closed on one UTC day — the same tables → shoes walk as the feed — and asks the archive for
 * each one's object. A shoe closed before any round has no bundle (SHOE_NEVER_PLAYED) and is counted
 * apart. Read-only: it reports, the scheduled job (functions/jobs/check-archive) alarms.
 */
import type { AuditArchive, ShoeRecord } from '../shared';
import { invalid, operatorTables, utcDay } from '../shared';
import { archiveKey, shoeWasPlayed } from '../shoes';
import type { ReportsCtx } from './ctx';
import { shoesIn } from './ggr';

export interface MissingShoe {
  shoeId: string;
  tableId: string;
  closedAt: string;
  /** Where its bundle should be. */
  key: string;
}

export interface ArchiveCheck {
  operatorId: string;
  date: string;
  from: string;
  to: string;
  /** Shoes closed in the range. */
  closed: number;
  /** Of those, found in the archive. */
  archived: number;
  /** Of those, closed before any round: nothing to archive. */
  neverPlayed: number;
  missing: MissingShoe[];
}

const closedIn = (shoe: ShoeRecord, from: string, to: string): shoe is ShoeRecord & { closedAt: string } =>
  shoe.status === 'CLOSED' && shoe.closedAt !== undefined && shoe.closedAt >= from && shoe.closedAt < to;

export async function checkArchive(
  ctx: ReportsCtx,
  archive: Pick<AuditArchive, 'stored'>,
  input: { operatorId: string; date: string },
): Promise<ArchiveCheck> {
  const { operatorId, date } = input;
  const day = utcDay(date);
  if (!day) throw invalid('INVALID_INPUT', `date must be a UTC day YYYY-MM-DD, got '${date}'`);
  const { from, to } = day;
  const check: ArchiveCheck = {
    operatorId,
    date,
    from,
    to,
    closed: 0,
    archived: 0,
    neverPlayed: 0,
    missing: [],
  };
  for await (const table of operatorTables(ctx, operatorId)) {
    for await (const shoe of shoesIn(ctx, table.tableId, from, to)) {
      if (!closedIn(shoe, from, to)) continue;
      check.closed++;
      if (!shoeWasPlayed(shoe)) {
        check.neverPlayed++;
        continue;
      }
      const key = archiveKey(operatorId, shoe.shoeId);
      if (await archive.stored(key)) check.archived++;
      else check.missing.push({ shoeId: shoe.shoeId, tableId: table.tableId, closedAt: shoe.closedAt, key });
    }
  }
  return check;
}
