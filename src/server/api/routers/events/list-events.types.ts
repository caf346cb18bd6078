import { eventFilters, eventListResponse } from '@/server/core/interface/event';

export const listEventsInput = eventFilters;
export const listEventsOutput = eventListResponse;
