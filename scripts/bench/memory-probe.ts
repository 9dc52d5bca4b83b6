// Preloaded into the benchmarked sandbox process (`node --expose-gc --import ./scripts/bench/memory-probe.ts`):
// answers the bench's IPC message `memory` with the process's `process.memoryUsage()`, and `memory-after-gc`
// with the same after a full garbage collection (what the process retains). Does nothing without an IPC channel.
if (process.send) {
  process.on('message', (message) => {
    if (message === 'memory-after-gc') (globalThis as { gc?: () => void }).gc?.();
    if (message === 'memory' || message === 'memory-after-gc') process.send!({ memory: process.memoryUsage() });
  });
  process.channel?.unref();
}
