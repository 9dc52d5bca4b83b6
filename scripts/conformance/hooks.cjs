// Dredd hook file (Dredd loads it with require(), so it is CommonJS). The logic lives in dredd-hooks.ts,
// which Node 24 loads directly (type stripping + require of ES modules). The runner (run.ts) passes its
// settings in the JSON file named by CONFORMANCE_CONFIG.
const hooks = require('hooks');
const impl = require('./dredd-hooks.ts');

if (!process.env.CONFORMANCE_CONFIG) {
  throw new Error('CONFORMANCE_CONFIG is not set: run the suite with `npm run conformance -- --server <url> --api-key <key>`');
}
const state = impl.createState(process.env.CONFORMANCE_CONFIG);

hooks.beforeAll((transactions, done) => {
  impl.beforeAll(state, transactions).then(
    () => done(),
    (error) => {
      console.error(`conformance set-up failed: ${error?.stack ? error.stack : error}`);
      done();
    },
  );
});
hooks.beforeEach((transaction, done) => {
  impl.beforeEach(state, transaction).then(
    () => done(),
    () => done(),
  );
});
hooks.beforeEachValidation((transaction) => impl.beforeEachValidation(state, transaction));
hooks.afterEach((transaction) => impl.afterEach(state, transaction));
hooks.afterEach((transaction, done) => {
  impl.afterEachRestore(transaction).then(
    () => done(),
    () => done(),
  );
});
hooks.afterAll((_transactions, done) => {
  impl.afterAll(state);
  done();
});
