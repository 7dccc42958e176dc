/** The rules the coups are played and settled with, as named in every signed shoe statement. */
export const RULES_VERSION = 'pyb-rules/1';
