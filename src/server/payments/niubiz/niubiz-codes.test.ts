import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECLINE_CLASSES } from '@/server/core/domain/decline-class';
import { NIUBIZ_APPROVAL_CODES, NIUBIZ_DECLINE_CLASSES, NIUBIZ_REVERSAL_CODE, niubizDeclineClass } from './niubiz-codes';

// Every action code of the research's table (docs/processors/sources/niubiz-api.md §12), read
// from the document itself, maps to a class (or is an approval or a reversal's success).

function documentedCodes(): string[] {
  const notes = readFileSync('docs/processors/sources/niubiz-api.md', 'utf8');
  const section = notes.slice(notes.indexOf('## 12. Action codes'), notes.indexOf('## 13. Test data'));
  const codes: string[] = [];
  for (const line of section.split('\n')) {
    const cell = /^\|\s*([0-9][0-9,–\- ]*?)\s*\|/.exec(line)?.[1];
    if (!cell) continue;
    for (const part of cell.split(',').map((each) => each.trim())) {
      const range = /^(\d+)[–-](\d+)$/.exec(part);
      if (range) for (let code = Number(range[1]); code <= Number(range[2]); code += 1) codes.push(String(code));
      else codes.push(part);
    }
  }
  return codes;
}

describe('Niubiz action codes', () => {
  const codes = documentedCodes();

  it('reads the research table (over a hundred codes)', () => {
    expect(codes.length).toBeGreaterThan(100);
    expect(codes).toEqual(expect.arrayContaining(['000', '116', '180', '300', '414', '419', '670', '965', '55']));
  });

  it('maps every documented code to a decline class, apart from approvals and the reversal success', () => {
    const unmapped = codes.filter(
      (code) => !NIUBIZ_APPROVAL_CODES.has(code) && code !== NIUBIZ_REVERSAL_CODE && !(code in NIUBIZ_DECLINE_CLASSES),
    );
    expect(unmapped).toEqual([]);
    for (const declineClass of Object.values(NIUBIZ_DECLINE_CLASSES)) expect(DECLINE_CLASSES).toContain(declineClass);
  });

  it('classes the codes routing depends on as ORCHESTRATION.md 1 does', () => {
    expect(niubizDeclineClass('116')).toBe('soft'); // insufficient funds
    expect(niubizDeclineClass('101')).toBe('hard'); // expired
    expect(niubizDeclineClass('208')).toBe('hard'); // lost
    expect(niubizDeclineClass('209')).toBe('hard'); // stolen
    expect(niubizDeclineClass('912')).toBe('technical'); // issuer unavailable
    expect(niubizDeclineClass('666')).toBe('technical');
    expect(niubizDeclineClass('403')).toBe('sca_required');
    expect(niubizDeclineClass('670')).toBe('hard'); // antifraud
    expect(niubizDeclineClass('999')).toBe('hard'); // unknown: never tried elsewhere
  });
});
