import { describe, expect, it } from 'vitest';
import { sameSiteRedirect } from './console-auth';

// Where the console's sign-in and sign-out may send the browser (the fuzz suite found next-auth's
// default failing with a 500 on the values below).
const BASE = 'http://localhost:3000';

describe('sameSiteRedirect', () => {
  it('keeps addresses of this site', () => {
    expect(sameSiteRedirect('/operations?state=LIQUIDADO', BASE)).toBe(`${BASE}/operations?state=LIQUIDADO`);
    expect(sameSiteRedirect(`${BASE}/refunds`, BASE)).toBe(`${BASE}/refunds`);
  });

  it('sends anything else to the root of this site', () => {
    for (const url of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)', 'http://localhost.evil.example/']) {
      expect([url, sameSiteRedirect(url, BASE)]).toEqual([url, BASE]);
    }
  });

  it('answers a value a Location header can carry for relative names, line breaks and any character', () => {
    for (const url of [
      'x',
      '_',
      '$1',
      'constructor',
      '/\r\nX-Injected: 1',
      '𝕿𝖍𝖊',
      '/𝕿𝖍𝖊',
      '\\',
      '"><img src=x onerror=alert(1)>',
    ]) {
      const target = sameSiteRedirect(url, BASE);
      expect(() => new Headers({ location: target })).not.toThrow();
      expect(new URL(target).origin).toBe(BASE);
    }
  });
});
