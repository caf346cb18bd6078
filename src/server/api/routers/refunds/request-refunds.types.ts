import { refundCreateResponse, refundRequest } from '@/server/schemas/refund';

export const requestRefundsInput = refundRequest;
export const requestRefundsOutput = refundCreateResponse;
