/**
 * Archives a closed shoe: its audit bundle (the export a regulator gets, `exportAudit`) written once,
 * in canonical JSON, to the audit archive, locked for the retention period. Run by the archiver on
 * AWS's engines (a DynamoDB stream of the game table, filtered to shoes reaching CLOSED), never by a
 * request. Idempotent per shoe: the same shoe archived twice stores one object.
 */
import { canonicalJson, type ShoeBundle } from '@pyb/fairness';
import type { Actor, AuditArchive, ShoeRecord } from '../shared';
import { DomainError } from '../shared';

export interface ArchiveShoeDeps {
  exportAudit(actor: Actor, input: { shoeId: string }): Promise<ShoeBundle>;
  archive: AuditArchive;
  now(): Date;
  /** How long each bundle stays locked (the deployment's retention period). */
  retentionDays: number;
}

export type ArchiveShoeOutcome =
  | { shoeId: string; status: 'ARCHIVED' | 'ALREADY_ARCHIVED'; key: string; sha256: string; bytes: number }
  | { shoeId: string; status: 'NOTHING_TO_ARCHIVE'; reason: string };

export const archiveKey = (operatorId: string, shoeId: string): string =>
  `shoes/${operatorId}/${shoeId}.json`;

/** Played: a round opened, so a seed was used and a bundle exists (else the export answers SHOE_NEVER_PLAYED). */
export const shoeWasPlayed = <S extends Pick<ShoeRecord, 'entropy' | 'beacon' | 'contributionsClosed'>>(
  shoe: S,
): shoe is S & Required<Pick<ShoeRecord, 'entropy' | 'beacon' | 'contributionsClosed'>> =>
  shoe.entropy !== undefined && shoe.beacon !== undefined && shoe.contributionsClosed !== undefined;

/** The archiver reads like a regulator of that one operator: read-only, that tenant only. */
const archiverActor = (operatorId: string): Actor => ({
  operatorId,
  role: 'regulator',
  supervises: [operatorId],
});

const DAY_MS = 86_400_000;

export async function archiveClosedShoe(
  deps: ArchiveShoeDeps,
  shoe: { shoeId: string; operatorId: string },
): Promise<ArchiveShoeOutcome> {
  let bundle: ShoeBundle;
  try {
    bundle = await deps.exportAudit(archiverActor(shoe.operatorId), { shoeId: shoe.shoeId });
  } catch (error) {
    // Closed before any round: no seed was used, there is nothing a verifier could check.
    if (error instanceof DomainError && error.code === 'SHOE_NEVER_PLAYED') {
      return { shoeId: shoe.shoeId, status: 'NOTHING_TO_ARCHIVE', reason: error.message };
    }
    throw error;
  }
  const body = new TextEncoder().encode(canonicalJson(bundle));
  const key = archiveKey(shoe.operatorId, shoe.shoeId);
  const put = await deps.archive.putOnce({
    key,
    body,
    contentType: 'application/json',
    retainUntil: new Date(deps.now().getTime() + deps.retentionDays * DAY_MS),
    metadata: {
      format: bundle.format,
      'operator-id': shoe.operatorId,
      'table-id': bundle.statement.tableId,
      'shoe-id': shoe.shoeId,
    },
  });
  return {
    shoeId: shoe.shoeId,
    status: put.status === 'CREATED' ? 'ARCHIVED' : 'ALREADY_ARCHIVED',
    key,
    sha256: put.sha256,
    bytes: body.length,
  };
}
