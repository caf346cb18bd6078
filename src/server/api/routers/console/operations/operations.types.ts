import { operationFiltersInput } from '@/server/modules/console/operations-filters';

export const operationsInput = operationFiltersInput;
