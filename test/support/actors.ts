import type { Actor } from '@pyb/core';

export const operator = (operatorId = 'op-1'): Actor => ({ operatorId, role: 'operator', supervises: [] });
export const admin = (operatorId = 'op-1'): Actor => ({ operatorId, role: 'admin', supervises: [] });
export const regulator = (...supervises: string[]): Actor => ({
  operatorId: 'reg-1',
  role: 'regulator',
  supervises,
});
