// Content-Security-Policy of the pages (console, login, payer pages): scripts only from this
// origin with the request's nonce ('strict-dynamic' lets Next's own chunks load), styles from
// this origin plus inline style attributes (charts position their parts with them), images from
// this origin and data: URIs (the QR code), no plugins, no framing, no <base> tricks.
// Forms may post only here on console pages; payer pages post here and are then redirected to
// the merchant's redirect_url, which browsers check against form-action, so they leave it open.
export function pageCsp(nonce: string, options: { dev: boolean; payerPage: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    ...(options.payerPage ? [] : ["form-action 'self'"]),
  ].join('; ');
}

/** A fresh nonce for each page request (128 random bits, base64). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}
