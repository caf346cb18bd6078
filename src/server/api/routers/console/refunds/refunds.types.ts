import { refundFilters } from '@/server/schemas/refund';

export const refundsInput = refundFilters;
