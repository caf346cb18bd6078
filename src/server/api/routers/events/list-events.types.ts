import { eventFilters, eventListResponse } from '@/server/schemas/event';

export const listEventsInput = eventFilters;
export const listEventsOutput = eventListResponse;
