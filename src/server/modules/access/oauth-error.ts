import { AppError } from '@/server/core/domain/errors';

// The token endpoint's failures: the envelope of docs/DESIGN.md 4 plus RFC 6749 5.2's `error`
// and `error_description` (RFC 8707 2 adds `invalid_target`).
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'invalid_target';

export function oauthError(error: OAuthErrorCode, description: string, field?: string): AppError {
  return new AppError(error === 'invalid_client' ? 'INVALID_CLIENT' : 'VALIDATION', description, {
    extras: { error, error_description: description },
    errors: [{ ...(field ? { field } : {}), code: error, message: description }],
  });
}
