/**
 * Matchmaking state of one demo run: who lives in which region, the rotation of every (region,
 * queue), and until when each player is still busy in a match. It advances as matches are
 * filled in chronological order.
 */
import { isStandardGameMode } from '../domain/game-modes.ts';
import type { DemoPlayer } from './players.ts';
import { createRandom, deriveSeed } from './random.ts';
import { Rotation } from './rotation.ts';

export interface Matchmaking {
  players: readonly DemoPlayer[];
  /** Players of each region, by index (tournament pros are not matchmade). */
  regionMembers: ReadonlyMap<string, readonly number[]>;
  /** Rotation of a (region, queue), created on first use. */
  rotation(region: string, queue: string): Rotation;
  /** Until when (epoch ms) each player is still in a match. */
  busyUntil: Float64Array;
}

/**
 * Fresh matchmaking for `players`. A queue named after a standard mode is public matchmaking,
 * where favourite modes come up four times as often (and at least once a cycle); `ranked-<mode>`
 * queues hold the players who play ranked. On pc-b the public rotations restart at
 * `pcbSeasonStart` (when given) so that everyone plays every mode in the current season.
 */
export function createMatchmaking(
  players: readonly DemoPlayer[],
  seed: number,
  pcbSeasonStart: number | null,
): Matchmaking {
  const regionMembers = new Map<string, number[]>();
  for (const p of players) {
    if (p.platform === 'tournament') continue;
    const members = regionMembers.get(p.region) ?? [];
    members.push(p.index);
    regionMembers.set(p.region, members);
  }
  const rotations = new Map<string, Rotation>();
  return {
    players,
    regionMembers,
    busyUntil: new Float64Array(players.length),
    rotation(region, queue) {
      const key = `${region}|${queue}`;
      let rotation = rotations.get(key);
      if (!rotation) {
        const members = regionMembers.get(region) ?? [];
        const copies = (i: number): number => {
          const p = players[i]!;
          if (queue.startsWith('ranked-')) return p.ranked * p.activity;
          if (!isStandardGameMode(queue)) return p.activity;
          return p.favourites.has(queue) ? Math.max(1, 1.6 * p.activity) : 0.4 * p.activity;
        };
        const pcb = members.length > 0 && players[members[0]!]!.platform === 'pc-b';
        const fresh = isStandardGameMode(queue) && pcb ? pcbSeasonStart : null;
        rotation = new Rotation(
          members,
          copies,
          createRandom(deriveSeed(seed, 'rotation', key)),
          fresh,
        );
        rotations.set(key, rotation);
      }
      return rotation;
    },
  };
}
