import { describe, expect, it } from 'vitest';
import { repairedPath } from './malformed-path';

describe('repairedPath', () => {
  it('leaves decodable paths alone, escaped or not', () => {
    for (const path of ['/api/charges', '/api/charges/DEMO001/ord%2D1/x', '/operations/%25', '/pay/%C3%B1'])
      expect(repairedPath(path)).toBeNull();
  });

  it('escapes every percent sign of a path that cannot be decoded, so it reads as sent', () => {
    expect(repairedPath('/api/charges/%E0%A4%A')).toBe('/api/charges/%25E0%25A4%25A');
    expect(repairedPath('/api/charges/DEMO001/ord%2D1%zz')).toBe('/api/charges/DEMO001/ord%252D1%25zz');
    expect(repairedPath('/operations/%')).toBe('/operations/%25');
    expect(decodeURIComponent(repairedPath('/x/%E0%A4%A')!)).toBe('/x/%E0%A4%A');
  });
});
