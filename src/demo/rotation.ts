/**
 * Matchmaking by rotation: the players of one queue (a region and game mode) are dealt out in
 * shuffled cycles — a member who is already in the lobby or still playing another match is held
 * back and dealt first next time. A member appears in a cycle as many times as their weight on
 * average (a weight of 0.3 deals them into about every third cycle, 12 twelve times a cycle).
 */
import type { Random } from './random.ts';

export class Rotation {
  private order: number[] = [];
  private position = 0;
  private held: number[] = [];

  /**
   * @param members player indices of the queue
   * @param copies mean appearances of a member per cycle (≥ 0)
   * @param freshCycleAt instant (epoch ms) from which a new cycle starts that deals every member
   *   exactly once: used at a season start so a whole population gets a match in the season
   */
  constructor(
    readonly members: readonly number[],
    private readonly copies: (member: number) => number,
    private readonly random: Random,
    private freshCycleAt: number | null = null,
  ) {}

  /**
   * Up to `count` members for a match at `at`, skipping (and holding back) those `usable`
   * refuses. Fewer when too few members are usable.
   */
  take(count: number, at: number, usable: (member: number) => boolean): number[] {
    if (this.members.length === 0 || count <= 0) return [];
    if (this.freshCycleAt !== null && at >= this.freshCycleAt) {
      this.freshCycleAt = null;
      this.held = [];
      this.startCycle(true);
    }
    const taken: number[] = [];
    const skipped = new Set<number>();
    const chosen = new Set<number>();
    const consider = (member: number): void => {
      if (taken.length < count && !chosen.has(member) && usable(member)) {
        taken.push(member);
        chosen.add(member);
      } else if (!chosen.has(member)) {
        skipped.add(member);
      }
    };
    const held = this.held;
    this.held = [];
    for (const member of held) consider(member);
    let budget = this.members.length * 2;
    while (taken.length < count && budget-- > 0) {
      if (this.position >= this.order.length) this.startCycle(false);
      consider(this.order[this.position++]!);
    }
    this.held = [...skipped];
    return taken;
  }

  private startCycle(fresh: boolean): void {
    const order: number[] = [];
    for (const member of this.members) {
      const mean = fresh ? 1 : this.copies(member);
      const whole = Math.floor(mean);
      const n = whole + (this.random.next() < mean - whole ? 1 : 0);
      for (let i = 0; i < n; i++) order.push(member);
    }
    // A cycle nobody was drawn into deals everyone once instead.
    this.order = this.random.shuffle(order.length > 0 ? order : [...this.members]);
    this.position = 0;
  }
}
