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
import { makeFighters, type Battle, type BattleRoster, type Knock } from './fighters.ts';
import type { DemoMap } from './maps.ts';
import type { LobbyRoster } from './lobby.ts';
import type { Random } from './random.ts';

const strongestFirst = (a: { strength: number }, b: { strength: number }): number =>
  b.strength - a.strength;
const descending = (a: number, b: number): number => b - a;
const byTime = (a: Knock, b: Knock): number => a.at - b.at;

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
  const byStrength: Array<{ roster: number; strength: number }> = [];
  for (let r = 0; r < members.length; r++) {
    const team = members[r]!;
    let skill = 0;
    for (const i of team) skill += fighters[i]!.skill;
    const mean = skill / team.length;
    const strength = mean + 0.15 * team.length - 1.1 * Math.log(-Math.log(random.next() || 1e-9));
    byStrength.push({ roster: r, strength });
  }
  byStrength.sort(strongestFirst);
  // The roster ranked rk is byStrength[rk - 1].
  const rank = new Array<number>(members.length);
  for (let position = 0; position < byStrength.length; position++)
    rank[byStrength[position]!.roster] = position + 1;

  // Elimination times: the runner-up falls just before the end, the others earlier, early ones
  // densely.
  const finalAt = durationMs - random.int(1_000, 4_000);
  const earliest = matchStartAt + 60_000;
  const eliminated = new Array<number>(members.length).fill(Infinity);
  if (members.length > 1) eliminated[byStrength[1]!.roster] = finalAt;
  const times: number[] = [];
  for (let k = 0; k < members.length - 2; k++)
    times.push(earliest + (finalAt - 30_000 - earliest) * random.next() ** 2);
  times.sort(descending);
  for (let rk = members.length; rk >= 3; rk--) {
    const r = byStrength[rk - 1]!.roster;
    let landed = -Infinity;
    for (const i of members[r]!) landed = Math.max(landed, fighters[i]!.landedAt);
    landed += 8_000;
    const later = rk < members.length ? eliminated[byStrength[rk]!.roster]! + 1 : 0;
    eliminated[r] = Math.min(finalAt - 1, Math.round(Math.max(times[rk - 3]!, landed, later)));
  }

  for (let r = 0; r < members.length; r++) {
    const team = members[r]!;
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
      continue;
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
  }

  const book = new HitBook(fighters);
  const deaths = resolveDeaths(
    random,
    fighters,
    members,
    map,
    { durationMs, matchStartAt, finalAt, teamSize },
    book,
  );
  const knocks: Knock[] = [];
  for (const d of deaths) if (d.knock) knocks.push(d.knock);
  if (teamSize > 1) knocks.push(...addRevives(random, fighters, members, deaths, durationMs, book));
  knocks.sort(byTime);
  book.addWounds(random, durationMs);
  const rosters: BattleRoster[] = [];
  for (let r = 0; r < members.length; r++)
    rosters.push({ teamId: lobby[r]!.teamId, members: members[r]!, rank: rank[r]! });
  return {
    fighters,
    rosters,
    knocks,
    deaths,
    hits: book.sorted(),
    durationMs,
    matchStartAt,
    teamSize,
  };
}
