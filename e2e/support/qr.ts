import { expect } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** The text of the QR code in a PNG (a screenshot, or a decoded qr_image), or undefined when there is none. */
export function qrText(png: PNG): string | undefined {
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data;
}

/** The text a QR code in a `data:image/png;base64,...` URI (a qr_image) encodes. */
export function decodeQr(dataUri: string): string {
  const match = /^data:image\/png;base64,(.+)$/.exec(dataUri);
  expect(match, `qr_image is a PNG data URI: ${dataUri.slice(0, 40)}`).not.toBeNull();
  const png = PNG.sync.read(Buffer.from(match![1]!, 'base64'));
  const text = qrText(png);
  expect(text, `qr_image decodes (${png.width}x${png.height})`).toBeDefined();
  return text!;
}
