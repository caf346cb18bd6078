import { operationFiltersInput } from '@/server/schemas/console-operations';

export const operationsInput = operationFiltersInput;
