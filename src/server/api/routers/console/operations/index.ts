import { cancel } from './cancel';
import { operation } from './operation';
import { operations } from './operations';
import { overview } from './overview';

export const operationsProcedures = { overview, operations, operation, cancel };
