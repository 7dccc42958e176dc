/**
 * What `./scripts/dev`'s banner says of the demo as it is now (balances persist in .data/, a walk may
 * have stopped midway): the README tour's regulator calls, each with what it prints now. Each part is
 * read on its own and a part that cannot be read says why in its place: a start never depends on how
 * much data the day holds (a day's feed over 5 MiB is FEED_TOO_LARGE, 90 days of play past the
 * history's bound HISTORY_TOO_LARGE — the same answers the documented curl then gets).
 */
import { type Actor, type createCore, DomainError } from '@pyb/core';
import type { exportFeed } from '@pyb/core/use-cases';

type Core = Pick<ReturnType<typeof createCore>, 'getWallet' | 'ggrReport' | 'playerHistory' | 'getTable'>;

export interface DemoStatusInput {
  core: Core;
  /** The operator's feed of a range on demand (core exportFeed). */
  feed: (range: { from: string; to: string }) => ReturnType<typeof exportFeed>;
  /** The demo operator's admin. */
  admin: Actor;
  operatorId: string;
  tableId: string;
  players: readonly string[];
  now: Date;
}

/** The lines of one part, or one line saying why it could not be read now. */
async function part(what: string, read: () => Promise<string[]>): Promise<string[]> {
  try {
    return await read();
  } catch (error) {
    const why =
      error instanceof DomainError
        ? `${error.code}: ${error.message}`
        : String((error as Error).message ?? error);
    return [`  (${what} could not be read now — ${why})`];
  }
}

export async function demoStatus(input: DemoStatusInput): Promise<string> {
  const { core, admin, operatorId, tableId, players, now } = input;
  const lines = await part('the wallets', async () => {
    const wallets = await Promise.all(players.map((playerId) => core.getWallet(admin, { playerId })));
    return [`Wallets (EUR, minor units): ${wallets.map((w) => `${w.playerId} ${w.balance}`).join(', ')}.`];
  });
  // The calls of the README tour, to the character, each with what it prints now (the same jq -c view).
  const today = now.toISOString().slice(0, 10);
  lines.push(
    `Regulator data, the day's GGR per table (README, "A short tour") — the call and what it prints now:`,
    `  curl -s "$API/v1/operators/${operatorId}/ggr?date=$(date -u +%F)" -H "Authorization: Bearer $REGULATOR_KEY" | jq -c '.rows[]'`,
    ...(await part("the day's GGR", async () => {
      const ggr = await core.ggrReport(admin, { date: today });
      return ggr.rows.length > 0
        ? ggr.rows.map((row) => `  ${JSON.stringify(row)}`)
        : [`  (no rows: no round settled or voided on ${today} UTC yet)`];
    })),
  );
  const dayStart = `${today}T00:00:00Z`;
  const dayEnd = `${new Date(Date.parse(dayStart) + 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`;
  lines.push(
    `Regulator feed of the day, NDJSON (docs/regulators.md, "Regulator data feed") — the call and its last line now:`,
    `  curl -s "$API/v1/operators/${operatorId}/feed?from=$(date -u +%F)T00:00:00Z&to=$(date -u -d tomorrow +%F)T00:00:00Z" \\`,
    `    -H "Authorization: Bearer $REGULATOR_KEY" | tail -1 | jq -c '{counts, totals}'`,
    ...(await part("the day's feed", async () => {
      const feed = await input.feed({ from: dayStart, to: dayEnd });
      const summary = JSON.parse(feed.body.trimEnd().split('\n').at(-1)!) as {
        counts: unknown;
        totals: unknown;
      };
      return [`  ${JSON.stringify({ counts: summary.counts, totals: summary.totals })}`];
    })),
  );
  const player = players[0]!;
  lines.push(
    `Player history of ${player}, last 90 days (docs/api.md, "Player history") — the call and what it prints now:`,
    `  curl -s "$API/v1/players/${player}/history?from=$(date -u -d '-90 days' +%FT%TZ)&to=$(date -u -d '+1 min' +%FT%TZ)&limit=5" \\`,
    `    -H "Authorization: Bearer $OPERATOR_KEY" | jq -c '{totals, rounds: [.rounds[] | {roundId, openedAt, settledAt}], nextCursor}'`,
    ...(await part("the player's history", async () => {
      const from = new Date(now.getTime() - 90 * 86_400_000).toISOString();
      const to = new Date(now.getTime() + 60_000).toISOString();
      const history = await core.playerHistory(admin, { playerId: player, from, to, limit: 5 });
      const rounds = history.rounds.map(({ roundId, openedAt, settledAt }) => ({
        roundId,
        openedAt,
        settledAt,
      }));
      return [`  ${JSON.stringify({ totals: history.totals, rounds, nextCursor: history.nextCursor })}`];
    })),
  );
  lines.push(
    ...(await part('the demo table', async () => {
      const table = await core.getTable(admin, { tableId });
      const out: string[] = [];
      if (table.lock) {
        out.push(
          `Table ${table.tableId} is LOCKED (${table.lock.source}: ${table.lock.cause}); once fixed, clear it:`,
          `  curl -s -X POST $API/v1/tables/${table.tableId}/unlock -H "Authorization: Bearer $ADMIN_KEY" \\`,
          `    -H "Idempotency-Key: unlock-$(date +%s)" -H 'Content-Type: application/json' -d '{"reason":"what was fixed"}'`,
        );
      }
      if (table.openRoundId) {
        out.push(
          `Round ${table.openRoundId} is still in play (an interrupted walk?): resolve or void it,`,
          `  curl -s -X POST $API/v1/rounds/${table.openRoundId}/void -H "Authorization: Bearer $OPERATOR_KEY" \\`,
          `    -H "Idempotency-Key: void-$(date +%s)" -H 'Content-Type: application/json' -d '{"reason":"OPERATOR_ERROR"}'`,
        );
      }
      return out;
    })),
  );
  return lines.join('\n');
}
