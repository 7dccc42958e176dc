/**
 * The player's bet slip for the open round: chips put on spots, not yet sent. Undo takes back the last
 * chip (or the last double), clear empties it, rebet puts back what he had on the table last round,
 * double doubles every spot (what is on the table and what is on the slip). Amounts are integer minor
 * units; the slip never spends: "Place bets" sends it as one request.
 */

export type Bets = ReadonlyMap<string, number>;

export class BetSlip {
  private readonly spots = new Map<string, number>();
  /** Each action's additions, for undo: one chip, or a whole rebet or double. */
  private readonly steps: Map<string, number>[] = [];

  /** What the slip would add, per bet type. */
  get bets(): Bets {
    return this.spots;
  }

  get total(): number {
    let sum = 0;
    for (const amount of this.spots.values()) sum += amount;
    return sum;
  }

  get empty(): boolean {
    return this.spots.size === 0;
  }

  add(type: string, amount: number): void {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`not a chip: ${amount}`);
    this.apply(new Map([[type, amount]]));
  }

  /** The last round's bets again (nothing when it had none). */
  rebet(last: Bets): boolean {
    if (last.size === 0) return false;
    this.apply(new Map(last));
    return true;
  }

  /** Doubles each spot: `placed` (on the table this round) plus what the slip holds. */
  double(placed: Bets): boolean {
    const more = new Map<string, number>();
    for (const type of new Set([...placed.keys(), ...this.spots.keys()])) {
      const amount = (placed.get(type) ?? 0) + (this.spots.get(type) ?? 0);
      if (amount > 0) more.set(type, amount);
    }
    if (more.size === 0) return false;
    this.apply(more);
    return true;
  }

  undo(): boolean {
    const last = this.steps.pop();
    if (!last) return false;
    for (const [type, amount] of last) {
      const left = (this.spots.get(type) ?? 0) - amount;
      if (left > 0) this.spots.set(type, left);
      else this.spots.delete(type);
    }
    return true;
  }

  clear(): void {
    this.spots.clear();
    this.steps.length = 0;
  }

  /** The request's `bets`: one entry per type, in the order given. */
  request(order: readonly string[]): { type: string; amount: number }[] {
    return order.filter((t) => this.spots.has(t)).map((type) => ({ type, amount: this.spots.get(type)! }));
  }

  private apply(additions: Map<string, number>): void {
    for (const [type, amount] of additions) this.spots.set(type, (this.spots.get(type) ?? 0) + amount);
    this.steps.push(additions);
  }
}
