import { describe, expect, it } from 'vitest';
import {
  apiErrorOf,
  PayApiError,
  PayAuthenticationError,
  PayConflictError,
  PayIdempotencyError,
  PayInvalidRequestError,
  PayPermissionError,
  PayRateLimitError,
} from '../src/errors.js';

const envelope = (code: string) => ({ success: 'false', meta: { status: { code, message_ilgn: [] } } });
const errorOf = (status: number, code: string) =>
  apiErrorOf({ status, method: 'POST', url: 'https://pay.example/api/charges', body: envelope(code), attempts: 1 });

describe('typed errors', () => {
  it.each([
    [401, '20', PayAuthenticationError],
    [403, '21', PayPermissionError],
    [429, '50', PayRateLimitError],
    [409, '40', PayIdempotencyError],
    [409, '41', PayConflictError],
    [400, '10', PayInvalidRequestError],
    [404, '30', PayInvalidRequestError],
    [422, '42', PayInvalidRequestError],
  ])('%i code %s is its own class, and still a PayApiError', (status, code, kind) => {
    const error = errorOf(status, code);
    expect(error).toBeInstanceOf(kind);
    expect(error).toBeInstanceOf(PayApiError);
    expect([error.status, error.code, error.name]).toEqual([status, code, kind.name]);
  });

  it('keeps the base class for what names no kind (the service unavailable, a proxy)', () => {
    const error = errorOf(503, '02');
    expect(error.constructor).toBe(PayApiError);
    expect(error.name).toBe('PayApiError');
  });
});
