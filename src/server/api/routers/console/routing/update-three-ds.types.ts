import { z } from 'zod';
import { threeDsSettingInput } from '@/server/core/three-ds/decision';
import { ofMerchant } from '../console-fields';

export const updateThreeDsInput = z.strictObject({ ...ofMerchant.shape, setting: threeDsSettingInput });
