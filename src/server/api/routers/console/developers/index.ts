import { credentials } from './credentials';
import { issueCredential } from './issue-credential';
import { revokeCredential } from './revoke-credential';

export const developersProcedures = { credentials, issueCredential, revokeCredential };
