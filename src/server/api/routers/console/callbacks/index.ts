import { router } from '../../../trpc';
import { callbackEvents } from './callback-events';
import { resendEvent } from './resend-event';

export const callbacksRouter = router({ callbackEvents, resendEvent });
