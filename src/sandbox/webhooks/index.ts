/** Webhooks of the sandbox: signed deliveries of its events, retried and recorded. */
export {
  attemptHeader,
  defaultWebhookTimeoutMs,
  environmentHeader,
  startWebhooks,
  webhookPayload,
  type WebhookOptions,
  type Webhooks,
} from './dispatcher.js';
export { listDeliveries, type DeliveryOutcome, type DeliveryRow } from './deliveries.js';
export { defaultRetryScheduleMs, parseRetrySchedule, WebhookConfigError } from './schedule.js';
export { defaultToleranceSeconds, signatureHeader, signPayload, verifySignature } from './signature.js';
