import { router } from '../../../trpc';
import { credentials } from './credentials';
import { issueCredential } from './issue-credential';
import { revokeCredential } from './revoke-credential';

export const developersRouter = router({ credentials, issueCredential, revokeCredential });
