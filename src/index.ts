// Package entry: the partner API client. Webhook helpers are in the `./webhooks` entry, types in `./types`.
export * from './client/index.js';
