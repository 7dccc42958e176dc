import { canonicalJson } from '@pyb/fairness';

/**
 * Whether two values have the same RFC 8785 JSON: how stored items are compared with the hashed
 * events (key order aside). A value with no JSON form (undefined, a cycle) is never the same.
 */
export const same = (a: unknown, b: unknown): boolean => {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
};
