/**
 * Knocks that end in a revive by a teammate: the victim fights on. Each knock is a hit in the
 * battle's hit book (it counts in the knocker's damage and DBNOs); the reviver's revive counts.
 */
import type { HitBook } from './battle-hits.ts';
import {
  aliveMates,
  makeKnock,
  pickOpponent,
  type Death,
  type Fighter,
  type Knock,
} from './fighters.ts';
import type { Random } from './random.ts';

export function addRevives(
  random: Random,
  fighters: Fighter[],
  members: number[][],
  deaths: readonly Death[],
  durationMs: number,
  book: HitBook,
): Knock[] {
  const finalKnock = new Map(deaths.filter((d) => d.knock).map((d) => [d.victim, d.knock!.at]));
  const busy = new Map<number, number>();
  const knocks: Knock[] = [];
  const wanted = random.poisson(fighters.length * (members.some((m) => m.length > 2) ? 0.2 : 0.11));
  for (let attempt = 0; attempt < wanted * 3 && knocks.length < wanted; attempt++) {
    const victim = random.pick(fighters);
    if (members[victim.roster]!.length < 2) continue;
    const end = finalKnock.get(victim.index) ?? victim.diedAt ?? durationMs;
    const from = Math.max(victim.landedAt + 30_000, busy.get(victim.index) ?? 0);
    if (end - 45_000 <= from) continue;
    const at = Math.round(from + (end - 45_000 - from) * random.next());
    const revivedAt = at + random.int(6_000, 20_000);
    const revivers = aliveMates(
      fighters,
      members[victim.roster]!,
      victim.index,
      at,
      revivedAt + 5_000,
    );
    if (revivers.length === 0) continue;
    const knocker = pickOpponent(random, fighters, { roster: victim.roster, at, weight: 'power' });
    if (!knocker) continue;
    const reviver = fighters[random.pick(revivers)]!;
    const hit = book.strike(random, knocker, victim, at, random.float(70, 100));
    knocks.push(makeKnock(random, hit, { at: revivedAt, reviver: reviver.index }));
    knocker.dbnos++;
    reviver.revives++;
    busy.set(victim.index, revivedAt + 20_000);
  }
  return knocks;
}
