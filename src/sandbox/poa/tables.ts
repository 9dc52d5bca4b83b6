// The proof-of-address documents (DDL) and their review states (the sandbox's). A customer's latest document is
// found through its customer.

export const TABLES = `
CREATE TABLE IF NOT EXISTS poa_documents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL,
  customer_code TEXT NOT NULL,
  document_name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  rejection_reason TEXT,
  approved_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS poa_documents_of_customer ON poa_documents (customer_code);
`;
