/**
 * A battle royale, simulated just far enough to be consistent: placements follow team skill,
 * teams are eliminated one by one until one remains, every death has a cause (a player, the
 * zone, a mistake, a disconnect), squads and duos get knocked before they die and are sometimes
 * revived. Times are milliseconds after the match's createdAt. Stats and telemetry are both
 * derived from the result, so they agree.
 */
import { resolveDeaths } from './battle-deaths.ts';
import { HitBook } from './battle-hits.ts';
import { addRevives } from './battle-revives.ts';
import { makeFighters, type Battle } from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { LobbyRoster } from './lobby.ts';
import type { Random } from './random.ts';

/** Plays out a battle-royale match of `durationSeconds` on `map` between the lobby's rosters. */
export function simulateBattleRoyale(
  random: Random,
  lobby: readonly LobbyRoster[],
  map: DemoMap,
  durationSeconds: number,
  teamSize: number,
): Battle {
  const durationMs = durationSeconds * 1000;
  const matchStartAt = random.int(50_000, 60_000);
  const { fighters, members } = makeFighters(random, lobby);
  for (const team of members) {
    const drop = matchStartAt + random.int(35_000, 105_000);
    for (const i of team) fighters[i]!.landedAt = drop + random.int(0, 5_000);
  }

  // Placement: team skill plus Gumbel noise, so the better team usually but not always wins.
  const strength = members.map((team) => {
    const mean = team.reduce((s, i) => s + fighters[i]!.skill, 0) / team.length;
    return mean + 0.15 * team.length - 1.1 * Math.log(-Math.log(random.next() || 1e-9));
  });
  const byStrength = members.map((_, r) => r).sort((a, b) => strength[b]! - strength[a]!);
  const rank = new Array<number>(members.length);
  byStrength.forEach((r, position) => (rank[r] = position + 1));
  const rosterAt = (rk: number): number => byStrength[rk - 1]!;

  // Elimination times: the runner-up falls just before the end, the others earlier, early ones
  // densely.
  const finalAt = durationMs - random.int(1_000, 4_000);
  const earliest = matchStartAt + 60_000;
  const eliminated = new Array<number>(members.length).fill(Infinity);
  if (members.length > 1) eliminated[rosterAt(2)] = finalAt;
  const times = Array.from(
    { length: Math.max(0, members.length - 2) },
    () => earliest + (finalAt - 30_000 - earliest) * random.next() ** 2,
  );
  times.sort((a, b) => b - a);
  for (let rk = members.length; rk >= 3; rk--) {
    const r = rosterAt(rk);
    const landed = Math.max(...members[r]!.map((i) => fighters[i]!.landedAt)) + 8_000;
    const later = rk < members.length ? eliminated[rosterAt(rk + 1)]! + 1 : 0;
    eliminated[r] = Math.min(finalAt - 1, Math.round(Math.max(times[rk - 3]!, landed, later)));
  }

  members.forEach((team, r) => {
    if (rank[r] === 1) {
      const anchor = random.pick(team);
      for (const i of team) {
        const f = fighters[i]!;
        if (i !== anchor && random.chance(0.22)) {
          f.diedAt = Math.round(
            f.landedAt + 5_000 + (finalAt - 5_000 - f.landedAt - 5_000) * random.next() ** 0.8,
          );
        }
      }
      return;
    }
    const end = eliminated[r]!;
    const last = random.pick(team);
    for (const i of team) {
      const f = fighters[i]!;
      const floor = f.landedAt + 5_000;
      if (i === last || end - 1 <= floor) f.diedAt = end;
      else if (random.chance(0.12))
        f.diedAt = Math.round(floor + (end - 1 - floor) * random.next());
      else
        f.diedAt = Math.round(end - 1 - random.next() ** 1.5 * Math.min(240_000, end - 1 - floor));
    }
  });

  const book = new HitBook(fighters);
  const deaths = resolveDeaths(
    random,
    fighters,
    members,
    map,
    { durationMs, matchStartAt, finalAt, teamSize },
    book,
  );
  const knocks = deaths.flatMap((d) => (d.knock ? [d.knock] : []));
  if (teamSize > 1) knocks.push(...addRevives(random, fighters, members, deaths, durationMs, book));
  knocks.sort((a, b) => a.at - b.at);
  book.addWounds(random, durationMs);
  return {
    fighters,
    rosters: members.map((team, r) => ({
      teamId: lobby[r]!.teamId,
      members: team,
      rank: rank[r]!,
    })),
    knocks,
    deaths,
    hits: book.sorted(),
    durationMs,
    matchStartAt,
    teamSize,
  };
}
