import { formatCard } from '@pyb/engine';
import { commitmentOf, dealShoe, hexToBytes, isHex, SERVER_SEED_BYTES } from '@pyb/fairness';
import { type Command, intOption, jsonLine, parseOptions, UsageError } from '../command';

/** The engine's table presets leave 14..20 cards behind the cut card. */
export const DEFAULT_MIN_BEHIND = 14;
export const DEFAULT_MAX_BEHIND = 20;

const usage = `usage: baccarat shoe --server-seed HEX --client-seed TEXT --shoe-id ID [--decks N]
                    [--min-behind N] [--max-behind N] [--json]

Deals a provably fair shoe (docs/provably-fair.md): the order of every card, the burn and the cut-card
index, from the revealed server seed (64 hex digits), the client seed and the shoe id.
  --decks N        decks in the shoe, 1-8 (default 8)
  --min-behind N   fewest cards behind the cut card, >= 7 (default ${DEFAULT_MIN_BEHIND})
  --max-behind N   most cards behind the cut card (default ${DEFAULT_MAX_BEHIND})
Take decks and the cut-card bounds from the shoe's signed statement.`;

export const shoeCommand: Command = {
  name: 'shoe',
  summary: 'deal a provably fair shoe from its seeds: order, burn, cut card',
  usage,
  async run(args, io) {
    const { values } = parseOptions(args, {
      'server-seed': { type: 'string' },
      'client-seed': { type: 'string' },
      'shoe-id': { type: 'string' },
      decks: { type: 'string' },
      'min-behind': { type: 'string' },
      'max-behind': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const serverSeed = values['server-seed'];
    const clientSeed = values['client-seed'];
    const shoeId = values['shoe-id'];
    if (serverSeed === undefined || clientSeed === undefined || shoeId === undefined) {
      throw new UsageError('--server-seed, --client-seed and --shoe-id are required');
    }
    if (!isHex(serverSeed, SERVER_SEED_BYTES)) {
      throw new UsageError(
        `--server-seed must be ${SERVER_SEED_BYTES * 2} hex digits (${SERVER_SEED_BYTES} bytes)`,
      );
    }
    const decks = intOption('decks', values.decks, 1, 8) ?? 8;
    const cutCard = {
      minCardsBehind: intOption('min-behind', values['min-behind'], 7, 8 * 52) ?? DEFAULT_MIN_BEHIND,
      maxCardsBehind: intOption('max-behind', values['max-behind'], 7, 8 * 52) ?? DEFAULT_MAX_BEHIND,
    };
    let shoe: ReturnType<typeof dealShoe>;
    const seed = hexToBytes(serverSeed.toLowerCase());
    try {
      shoe = dealShoe({ serverSeed: seed, clientSeed, shoeId, decks, cutCard });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const order = Array.from(shoe.order, formatCard);
    const result = {
      shoeId,
      clientSeed,
      decks,
      commitment: commitmentOf(seed),
      cutCard,
      cutIndex: shoe.cutIndex,
      cardsBehindCut: order.length - shoe.cutIndex,
      burn: { shown: formatCard(shoe.burn.shown), burned: shoe.burn.burned },
      firstCoupAt: shoe.firstCoupAt,
      order,
    };
    if (values.json) {
      io.stdout.write(jsonLine(result));
      return 0;
    }
    const lines = [
      `shoe ${shoeId}: ${decks} deck(s), ${order.length} cards; commitment ${result.commitment}`,
      `burn: ${result.burn.shown} shown, ${result.burn.burned} burned (cards 1..${result.burn.burned}); first coup at card ${shoe.firstCoupAt}`,
      `cut card before card ${shoe.cutIndex} (${result.cardsBehindCut} cards behind it)`,
      '',
    ];
    for (let i = 0; i < order.length; i += 13) {
      const row = order
        .slice(i, i + 13)
        .map((c, j) => (i + j === shoe.cutIndex ? `| ${c.padEnd(2)}` : c.padEnd(2)));
      lines.push(`${String(i).padStart(3)}  ${row.join(' ')}`);
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};
