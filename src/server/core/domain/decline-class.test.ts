import { describe, expect, it } from 'vitest';
import { DECLINE_CLASSES, declineClassOf } from './decline-class';

describe('declineClassOf', () => {
  it.each([
    ['96', 'technical'],
    ['91', 'technical'],
    ['05', 'soft'],
    ['51', 'soft'],
    ['61', 'soft'],
    ['65', 'sca_required'],
    ['1A', 'sca_required'],
    ['54', 'hard'],
    ['N7', 'hard'],
    ['14', 'hard'],
    ['41', 'hard'],
    ['43', 'hard'],
    ['57', 'hard'],
  ])('classes %s as %s (docs/ORCHESTRATION.md 1)', (code, declineClass) => {
    expect(declineClassOf(code)).toBe(declineClass);
  });

  it('classes an unknown code, such as Yape invalid OTP Y1, as hard', () => {
    expect(declineClassOf('Y1')).toBe('hard');
    expect(declineClassOf('')).toBe('hard');
    expect(declineClassOf('1a')).toBe('hard');
  });

  it('knows the four classes, in the order of the table', () => {
    expect(DECLINE_CLASSES).toEqual(['technical', 'soft', 'sca_required', 'hard']);
  });
});
