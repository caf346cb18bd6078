import { refundFilters, refundListResponse } from '@/server/core/interface/refund';

export const listRefundsInput = refundFilters;
export const listRefundsOutput = refundListResponse;
