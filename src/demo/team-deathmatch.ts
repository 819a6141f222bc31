/**
 * Team deathmatch (the arcade `tdm` mode): two rosters of eight respawning for a few minutes;
 * the team with more kills wins. Same `Battle` shape as a battle royale, but deaths are only
 * kills (victims respawn) and a player who leaves early is the only one who "dies" for good.
 */
import { HitBook, hp } from './battle-hits.ts';
import type { Battle, Death } from './fighters.ts';
import { alive, makeFighters, newDeath, nextAttackId } from './fighters.ts';
import type { LobbyRoster } from './lobby.ts';
import type { Random } from './random.ts';
import { WEAPONS } from './weapons.ts';

const ARENA_WEAPONS = WEAPONS.filter((w) => ['ar', 'smg', 'sg', 'dmr'].includes(w.weaponClass));

export function simulateTeamDeathmatch(
  random: Random,
  lobby: readonly LobbyRoster[],
  durationSeconds: number,
): Battle {
  const durationMs = durationSeconds * 1000;
  const matchStartAt = random.int(8_000, 15_000);
  const { fighters, members } = makeFighters(random, lobby);
  for (const f of fighters) {
    f.landedAt = matchStartAt + random.int(500, 3_000);
    f.loadout = [random.pick(ARENA_WEAPONS), random.pick(ARENA_WEAPONS)];
  }
  const strength = members.map(
    (team) => team.reduce((s, i) => s + fighters[i]!.skill, 0) / team.length,
  );
  const shareFirst = Math.min(
    0.7,
    Math.max(0.3, 1 / (1 + Math.exp(-1.2 * (strength[0]! - strength[1]!)))),
  );

  const leaver = random.chance(0.35) ? random.pick(fighters) : null;
  if (leaver) leaver.diedAt = random.int(60_000, durationMs - 30_000);

  const total = Math.round(durationSeconds * random.float(0.28, 0.4));
  const times = Array.from({ length: total }, () =>
    random.int(matchStartAt + 15_000, durationMs - 1_000),
  ).sort((a, b) => a - b);
  const deaths: Death[] = [];
  const book = new HitBook(fighters);
  const kills = [0, 0];
  for (const at of times) {
    const side = random.chance(shareFirst) ? 0 : 1;
    const shooters = members[side]!.map((i) => fighters[i]!).filter((f) => alive(f, at));
    const targets = members[1 - side]!.map((i) => fighters[i]!).filter((f) => alive(f, at));
    if (shooters.length === 0 || targets.length === 0) continue;
    const killer = shooters[random.weightedIndex(shooters.map((f) => Math.exp(0.9 * f.skill)))]!;
    const victim = random.pick(targets);
    const weapon = random.chance(0.85) ? random.pick(killer.loadout) : random.pick(ARENA_WEAPONS);
    const metres = Math.round(random.float(2, 90) ** 0.9 * 1000) / 1000;
    const headshot = random.chance(Math.min(0.5, Math.max(0.1, 0.28 + 0.06 * killer.skill)));
    killer.kills++;
    killer.killTimes.push(at);
    killer.longestKill = Math.max(killer.longestKill, metres);
    if (headshot) killer.headshotKills++;
    kills[side]!++;
    const hit = book.add({
      at,
      attacker: killer.index,
      victim: victim.index,
      weapon,
      vehicleId: null,
      metres,
      headshot,
      damage: hp(random.float(95, 110)),
      attackId: nextAttackId(killer),
    });
    const death = newDeath(at, victim.index, 'player', hit.attackId);
    death.killer = killer.index;
    death.hit = hit;
    deaths.push(death);
  }
  if (leaver) {
    deaths.push(newDeath(leaver.diedAt!, leaver.index, 'logout', -1));
    deaths.sort((a, b) => a.at - b.at);
  }
  book.addWounds(random, durationMs);
  // A draw goes to the stronger side, as if it had scored the last kill.
  const first = kills[0]! > kills[1]! || (kills[0] === kills[1] && strength[0]! >= strength[1]!);
  return {
    fighters,
    rosters: members.map((team, r) => ({
      teamId: lobby[r]!.teamId,
      members: team,
      rank: (r === 0) === first ? 1 : 2,
    })),
    knocks: [],
    deaths,
    hits: book.sorted(),
    durationMs,
    matchStartAt,
    teamSize: 8,
  };
}
