import { refundCreateResponse, refundRequest } from '@/server/core/interface/refund';

export const requestRefundsInput = refundRequest;
export const requestRefundsOutput = refundCreateResponse;
