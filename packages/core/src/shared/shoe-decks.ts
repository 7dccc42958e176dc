/**
 * The card order of a shoe, computed from its seeds (fairness `dealShoe`: server seed unsealed by the
 * key service + the shoe entropy — contributions and beacon round — + shoe id) and cached in memory
 * per shoe: unsealing is a KMS call, the order never changes once the entropy is recorded.
 */
import { base64ToBytes, commitmentOf, dealShoe, type Shoe } from '@pyb/fairness';
import { KeyServiceFailure } from './key-failures';
import { Lru } from './lru';
import type { ShoeRecord } from './model';
import type { KeyService } from './ports/key-service';

export class ShoeDecks {
  private readonly cache: Lru<string, Promise<Shoe>>;
  /** pyb-shoe/3 draws from the seed at every coup: kept like a pyb-shoe/2 order (no KMS call per coup). */
  private readonly seeds: Lru<string, Promise<Uint8Array>>;

  constructor(
    private readonly keys: KeyService,
    capacity = 32,
  ) {
    this.cache = new Lru(capacity);
    this.seeds = new Lru(capacity);
  }

  /** The server seed a pyb-shoe/3 draw takes, unsealed once per shoe and kept: never zero it. */
  drawSeed(shoe: ShoeRecord): Promise<Uint8Array> {
    let pending = this.seeds.get(shoe.shoeId);
    if (!pending) {
      pending = this.serverSeed(shoe);
      pending.catch(() => this.seeds.delete(shoe.shoeId));
      this.seeds.set(shoe.shoeId, pending);
    }
    return pending;
  }

  order(shoe: ShoeRecord): Promise<Shoe> {
    if (!shoe.entropy) throw new Error(`shoe ${shoe.shoeId} has no entropy yet (beacon round not recorded)`);
    const cacheKey = `${shoe.shoeId}\n${shoe.entropy}`;
    let pending = this.cache.get(cacheKey);
    if (!pending) {
      pending = this.compute(shoe, shoe.entropy);
      pending.catch(() => this.cache.delete(cacheKey));
      this.cache.set(cacheKey, pending);
    }
    return pending;
  }

  /** The server seed, checked against the published commitment. */
  async serverSeed(shoe: ShoeRecord): Promise<Uint8Array> {
    const seed = await this.keys.unsealSeed(base64ToBytes(shoe.sealedSeed), {
      shoeId: shoe.shoeId,
      operatorId: shoe.operatorId,
    });
    if (commitmentOf(seed) !== shoe.commitment) {
      seed.fill(0);
      throw new KeyServiceFailure(
        'SEED_COMMITMENT_MISMATCH',
        `shoe ${shoe.shoeId}: the unsealed seed does not match the commitment`,
      );
    }
    return seed;
  }

  private async compute(shoe: ShoeRecord, entropy: string): Promise<Shoe> {
    const serverSeed = await this.serverSeed(shoe);
    return dealShoe({
      serverSeed,
      clientSeed: entropy,
      shoeId: shoe.shoeId,
      decks: shoe.config.decks,
      cutCard: shoe.config.cutCard,
    });
  }
}
