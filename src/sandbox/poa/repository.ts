// Proof-of-address documents in the store, and the contract shape of a customer's POA status.
import type { components } from '../../../generated/openapi.js';
import type { SandboxCore } from '../core/context.js';
import type { CustomerRow } from '../customers/repository.js';

export interface DocumentRow {
  seq: number;
  account_id: number;
  customer_code: string;
  document_name: string;
  status: 'pending' | 'approved' | 'rejected';
  rejection_reason: string | null;
  approved_at: number | null;
}

/** The customer's latest document. */
export function latestDocument(core: SandboxCore, accountId: number, customerCode: string): DocumentRow | undefined {
  return core.db.get<DocumentRow>(
    'SELECT * FROM poa_documents WHERE account_id = ? AND customer_code = ? ORDER BY seq DESC LIMIT 1',
    accountId,
    customerCode,
  );
}

/** A new document, pending review. */
export function insertDocument(
  core: SandboxCore,
  accountId: number,
  customerCode: string,
  document: { name: string; contentType: string; sizeBytes: number },
): void {
  core.db.run(
    `INSERT INTO poa_documents (account_id, customer_code, document_name, content_type, size_bytes, status, rejection_reason, approved_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'pending', NULL, NULL, ?)`,
    accountId,
    customerCode,
    document.name,
    document.contentType,
    document.sizeBytes,
    core.clock.now(),
  );
}

export function approveDocument(core: SandboxCore, seq: number, at: number): void {
  core.db.run("UPDATE poa_documents SET status = 'approved', approved_at = ? WHERE seq = ?", at, seq);
}

export function rejectDocument(core: SandboxCore, seq: number, reason: string): void {
  core.db.run("UPDATE poa_documents SET status = 'rejected', rejection_reason = ? WHERE seq = ?", reason, seq);
}

export function poaStatusOf(core: SandboxCore, customer: CustomerRow, doc: DocumentRow): components['schemas']['PoaStatus'] {
  return {
    customer_code: customer.code,
    poa_status: doc.status,
    verification_level: customer.verification_level,
    document_name: doc.document_name,
    rejection_reason: doc.rejection_reason,
    approved_at: doc.approved_at !== null ? core.clock.iso(doc.approved_at) : null,
  };
}
