export { chainRecord, eventAt, latest, nextAudit, putAudit } from './audit-chain';
export { type AuditLog, checkChainPrefix, type ParsedEvent, parseAuditLog } from './audit-log';
export { digestSaltOf, newDigestSalt } from './digest-salt';
export { recordedPosition, recordedPositions, totalsOf } from './recorded';
