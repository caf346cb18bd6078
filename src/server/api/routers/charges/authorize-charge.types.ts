import { chargeRequest } from '@/server/core/interface/charge-request';
import { chargeResponse } from '@/server/core/interface/transaction';

export const authorizeChargeInput = chargeRequest;
export const authorizeChargeOutput = chargeResponse;
