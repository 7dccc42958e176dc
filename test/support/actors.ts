import type { Actor } from '@pyb/core';

export const operator = (operatorId = 'op-1'): Actor => ({ operatorId, role: 'operator', supervises: [] });
export const admin = (operatorId = 'op-1'): Actor => ({ operatorId, role: 'admin', supervises: [] });
export const regulator = (...supervises: string[]): Actor => ({
  operatorId: 'reg-1',
  role: 'regulator',
  supervises,
});
/** An admin key of the platform itself (it alone sets operators' wallet modes). */
export const platformAdmin = (): Actor => ({
  operatorId: 'platform',
  role: 'admin',
  supervises: [],
  platform: true,
  keyId: 'key-platform',
});
