// The command line of every tool: src/cli-parser.ts, which the package's sandbox bin shares (parseCli, runCli,
// the one-line errors and "did you mean").
export * from '../../src/cli-parser.ts';
