// Preloaded into the benchmarked sandbox process (`node --import ./scripts/bench/memory-probe.ts`): answers the
// bench's IPC message `memory` with the process's `process.memoryUsage()`. Does nothing without an IPC channel.
if (process.send) {
  process.on('message', (message) => {
    if (message === 'memory') process.send!({ memory: process.memoryUsage() });
  });
  process.channel?.unref();
}
