import { AppError } from '@/server/domain/errors';

export const MAX_BODY_BYTES = 64 * 1024;

/** Reads at most 64 KiB (413 51 past that), without trusting Content-Length alone. */
export async function readBodyText(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new AppError('PAYLOAD_TOO_LARGE');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON body (400 12 when it is not JSON or not sent as application/json). */
export function parseJsonBody(text: string, contentType: string | null): unknown {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new AppError('MALFORMED_BODY', 'Content-Type must be application/json');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('MALFORMED_BODY', 'the body is not valid JSON');
  }
}
