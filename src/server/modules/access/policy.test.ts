import { describe, expect, it } from 'vitest';
import { ROLES } from './console-session';
import { can, type Capability } from './policy';

// The roles of docs/DESIGN.md 1, capability by capability.
const EXPECTED: Record<Capability, string[]> = {
  'merchants:all': ['PLATFORM_ADMIN', 'SUPPORT'],
  'merchant:act': ['PLATFORM_ADMIN', 'MERCHANT_ADMIN'],
  'platform:read': ['PLATFORM_ADMIN', 'SUPPORT'],
  'platform:act': ['PLATFORM_ADMIN'],
};

describe('can', () => {
  it.each(Object.entries(EXPECTED))('grants %s to %j only', (capability, roles) => {
    expect(ROLES.filter((role) => can(role, capability as Capability))).toEqual(roles);
  });
});
