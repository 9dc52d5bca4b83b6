// The test kit (`@partner-api/contract/testing`): what a partner's own tests need around the sandbox, whether
// it runs in-process (startSandbox() from `./sandbox`) or in another process (`npx partner-api-sandbox`).
//   const receiver = await startWebhookReceiver();
//   await receiver.register(client);                         // POST /webhooks, keeps the secret
//   ... freeze a card ...
//   const event = await receiver.waitForEvent('card.frozen', { card_code: code });
// It loads no part of the sandbox itself (node:sqlite), so it runs on any Node the client runs on.
// See docs/testing.md.
export {
  startWebhookReceiver,
  type EventMatch,
  type ReceivedDelivery,
  type RejectedDelivery,
  type WaitOptions,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './receiver.js';
export { createSandboxClock, type ClockState, type SandboxClock } from './clock.js';
export { createSimulationClient, type SimulationClient, type SimulationClientOptions, type SimulationPaths } from '../sandbox/client.js';
