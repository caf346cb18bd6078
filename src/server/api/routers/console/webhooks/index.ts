import { router } from '../../../trpc';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
  webhookEndpoints,
} from './webhook-endpoints';

export const webhooksRouter = router({
  endpoints: webhookEndpoints,
  create: createWebhookEndpoint,
  update: updateWebhookEndpoint,
  remove: deleteWebhookEndpoint,
  sendTest: testWebhookEndpoint,
  rotateSecret: rotateWebhookSecret,
});
