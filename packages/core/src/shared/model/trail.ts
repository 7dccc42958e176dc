/** The records of the audit trail and the signing-key certificates (index.ts: what the model is). */
import type { AuditEventType } from '@pyb/contracts';
import type { KeyCertificate } from '@pyb/fairness';
import type { StoredAnchor } from '../ports/time-stamps';

export type { AuditEventType };

/** The hashed object. */
export interface AuditEvent {
  seq: number;
  type: AuditEventType;
  shoeId: string;
  roundId?: string;
  at: string;
  data: Record<string, unknown>;
}

export interface AuditRecord {
  shoeId: string;
  seq: number;
  type: AuditEventType;
  roundId?: string;
  /** RFC 8785 JSON of the AuditEvent, stored verbatim. */
  event: string;
  prevHash: string;
  hash: string;
}

/** A signing-key generation's certificate (fairness KeyCertificate), kept in the audit table. */
export interface KeyCertificateRecord {
  generation: number;
  certificate: KeyCertificate;
  /** base64 DER ECDSA: by the previous generation, or by itself for generation 1. */
  signature: string;
  /** Generations after the first: the outside time-stamp of the rotation, taken before the key signed. */
  anchor?: StoredAnchor;
}
