import { z } from 'zod';

// When a merchant's CARD payment authenticates with 3-D Secure (docs/ORCHESTRATION.md 5): before
// the authorization (always, or over an amount), or only as a step-up after the processor asks
// for it (`sca_required`, codes 65 and 1A). Pure: the orchestration loop asks, the console and
// the CLI validate a new setting with `threeDsSettingInput`.

export const THREE_DS_MODES = ['NEVER', 'ALWAYS', 'OVER', 'WHEN_REQUIRED'] as const;
export type ThreeDsMode = (typeof THREE_DS_MODES)[number];

/** The merchant's setting as `merchants.three_ds_mode` and `three_ds_over_amount` (cents) keep it. */
export type ThreeDsSetting = { mode: ThreeDsMode; overAmount: bigint | null };

/**
 * Whether to authenticate before the first authorization. OVER compares the amount in cents
 * with the threshold (strictly over it). An OVER without a threshold cannot be saved through
 * `threeDsSettingInput`; should a row hold one, every payment authenticates: the choice that
 * keeps the merchant's intent to authenticate rather than silently dropping it.
 */
export function authenticateFirst(setting: ThreeDsSetting, amount: bigint, { savesCard = false } = {}): boolean {
  // The customer-initiated charge that saves a card is authenticated unless the merchant never
  // authenticates (../shared CARD-ON-FILE.md 1): its later charges rest on it.
  if (savesCard && setting.mode !== 'NEVER') return true;
  switch (setting.mode) {
    case 'ALWAYS':
      return true;
    case 'OVER':
      return setting.overAmount === null || amount > setting.overAmount;
    case 'NEVER':
    case 'WHEN_REQUIRED':
      return false;
  }
}

/**
 * Whether an `sca_required` decline may step up to 3-D Secure and try again: in every mode but
 * NEVER (a merchant that chose ALWAYS or OVER still wants the step-up when the issuer asks for a
 * payment under the threshold).
 */
export function mayStepUp(setting: ThreeDsSetting): boolean {
  return setting.mode !== 'NEVER';
}

const CENTS = /^[1-9][0-9]{0,11}$/;
const absent = (value: string | null | undefined) => value === undefined || value === null || value === '';

/**
 * A new setting from the console or the CLI: `overAmount` (cents, as the interface writes
 * amounts: a digit string) is required with OVER and refused with the other modes, each with
 * its field's error. Parses to a `ThreeDsSetting`.
 */
export const threeDsSettingInput = z
  .strictObject({
    mode: z.enum(THREE_DS_MODES, { error: 'must be NEVER, ALWAYS, OVER or WHEN_REQUIRED' }),
    overAmount: z.string({ error: 'must be an amount in cents as a string of digits' }).nullish(),
  })
  .superRefine(({ mode, overAmount }, context) => {
    if (mode === 'OVER' && absent(overAmount)) {
      context.addIssue({ code: 'custom', path: ['overAmount'], message: 'is required with OVER: an amount in cents' });
    } else if (mode === 'OVER' && !CENTS.test(overAmount!)) {
      context.addIssue({
        code: 'custom',
        path: ['overAmount'],
        message: 'must be a positive integer amount in cents: digits only, no leading zero, at most 12 digits',
      });
    } else if (mode !== 'OVER' && !absent(overAmount)) {
      context.addIssue({
        code: 'custom',
        path: ['overAmount'],
        message: `must be empty with ${mode}: only OVER takes an amount`,
      });
    }
  })
  .transform(({ mode, overAmount }): ThreeDsSetting => ({ mode, overAmount: mode === 'OVER' ? BigInt(overAmount!) : null }));

export type ThreeDsSettingInput = z.input<typeof threeDsSettingInput>;
