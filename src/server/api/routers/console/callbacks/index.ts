import { callbackEvents } from './callback-events';
import { resendEvent } from './resend-event';

export const callbacksProcedures = { callbackEvents, resendEvent };
