// The reader of bundled documents for the scripts and tests: src/contract/bundle.ts, which the package's
// sandbox shares (JSON Pointer access, `$ref`s, operations, error statuses).
export * from '../../src/contract/bundle.ts';
