// JSON Pointer access and the functions over a raw bundle of src/contract/bundle.ts, for the scripts and tests
// that have not moved to the contract model yet; a new reader asks `contractModel(doc)` of src/contract/model.ts.
export * from '../../src/contract/bundle.ts';
