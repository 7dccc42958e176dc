/**
 * A table's bet types, their limits and its chips, as the engine reads a configuration, shared by the
 * console's table page and the game client.
 */
import { BET_TYPES, type BetLimit, betLimit, type TableConfig as EngineTableConfig } from '@pyb/engine';
import type { Table } from './types';

/**
 * The bet types this table takes and their limits, as the engine reads a configuration (`betLimit`:
 * pair bets where `pairBets`, side bets where `sideBets` offers them), so new bet types need no change here.
 */
export function tableLimits(table: Table): Record<string, BetLimit> {
  // The contract types the configuration the engine defines; side bets arrive as the engine writes them.
  const config = table.config as unknown as EngineTableConfig;
  const limits: Record<string, BetLimit> = {};
  for (const type of BET_TYPES) {
    const limit = betLimit(config, type);
    if (limit) limits[type] = limit;
  }
  return limits;
}
export const betTypes = (table: Table): string[] => Object.keys(tableLimits(table));

/** Chip values from the table's smallest minimum: 1, 5, 10, 25 and 100 of it. */
export function chipValues(table: Table): number[] {
  const base = Math.min(...Object.values(tableLimits(table)).map((limit) => limit.min));
  return [1, 5, 10, 25, 100].map((n) => n * base);
}
