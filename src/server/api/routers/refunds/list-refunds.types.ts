import { refundFilters, refundListResponse } from '@/server/schemas/refund';

export const listRefundsInput = refundFilters;
export const listRefundsOutput = refundListResponse;
