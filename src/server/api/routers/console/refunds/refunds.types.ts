import { refundFilters } from '@/server/core/interface/refund';

export const refundsInput = refundFilters;
