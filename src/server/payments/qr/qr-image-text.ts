import jsQR from 'jsqr';
import { PNG } from 'pngjs';

// The text a provider's QR image encodes. A provider that answers only with a picture of its
// code (Niubiz's QR Manager gives `tagImg`, docs/processors/sources/niubiz-api.md 9) still owes
// the merchant the payload text (PERU-ACQUIRERS.md 4), so the image is read back.

/** The EMVCo payload a `data:image/png;base64,…` image encodes; null when it is no PNG or holds no readable code. */
export function payloadOfImage(dataUri: string): string | null {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUri);
  if (!match) return null;
  try {
    const png = PNG.sync.read(Buffer.from(match[1]!, 'base64'));
    const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
    return code?.data ?? null;
  } catch {
    // Not a PNG pngjs can read: the image stays the answer, without its text.
    return null;
  }
}
