import { router } from '../../../trpc';
import { cancel } from './cancel';
import { capture } from './capture';
import { operation } from './operation';
import { operations } from './operations';
import { overview } from './overview';

export const operationsRouter = router({ overview, operations, operation, cancel, capture });
