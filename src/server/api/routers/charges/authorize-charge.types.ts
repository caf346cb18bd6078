import { chargeRequest } from '@/server/schemas/charge-request';
import { chargeResponse } from '@/server/schemas/transaction';

export const authorizeChargeInput = chargeRequest;
export const authorizeChargeOutput = chargeResponse;
