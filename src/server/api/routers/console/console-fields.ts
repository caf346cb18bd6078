import { z } from 'zod';
import { merchantCode, shortText } from '@/server/core/interface/common';

// Input fields several console procedures share.
export const transactionId = z.string().min(1).max(64);
export const clientId = z.string().min(1).max(128);

/** The merchant a call is about: a merchant user's own (may be left out); platform staff name one. */
export const ofMerchant = z.strictObject({ merchantCode: merchantCode.optional() });

/** A merchant's or facilitator's name, as every form and the operator CLI send it. */
export const merchantName = z.string().trim().min(1, 'must not be empty').max(128, 'must be at most 128 characters');

export const additionalFields = z.strictObject({
  canal: shortText(64),
  reason: shortText(256).min(1),
  description: shortText(1024),
});
