import { router } from '../../trpc';
import { createUser } from './create-user';
import { inspectOperation } from './inspect-operation';
import { issueCredential } from './issue-credential';
import { listCredentials } from './list-credentials';
import { resendEvent } from './resend-event';
import { revokeCredential } from './revoke-credential';
import { secretScan } from './secret-scan';
import { setExpirySeconds } from './set-expiry-seconds';

// Operator-only procedures (the CLI, the tests): what the console has no equivalent of. The CLI calls the
// console's procedures for the rest, as a platform admin (docs/DECISIONS.md).
export const adminRouter = router({
  issueCredential,
  listCredentials,
  revokeCredential,
  createUser,
  setExpirySeconds,
  inspectOperation,
  secretScan,
  resendEvent,
});
