/**
 * The consistency rules every generated match obeys, as assertions: placements, kill and death
 * accounting, stat bounds, and telemetry that tells the same story as the stats.
 */
import assert from 'node:assert/strict';
import type { MatchInput, ParticipantInput } from '../../src/ingest/match-input.ts';
import { demoMap } from '../../src/demo/game-catalogue.ts';

type Event = Record<string, unknown> & { _T: string; _D: string };
type Character = {
  name: string;
  teamId: number;
  accountId: string;
  ranking: number;
  location: { x: number; y: number; z: number };
};

const MS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DEFINITION_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;

export function participantsOf(match: MatchInput): ParticipantInput[] {
  return match.rosters.flatMap((r) => r.participants);
}

const sum = (ps: ParticipantInput[], pick: (p: ParticipantInput) => number): number =>
  ps.reduce((total, p) => total + pick(p), 0);

/** Placement, stats and death accounting of one match. */
export function assertConsistentStats(match: MatchInput): void {
  const ps = participantsOf(match);
  const tdm = match.gameMode === 'tdm';
  const ranks = match.rosters.map((r) => r.rank).sort((a, b) => a - b);
  assert.deepEqual(
    ranks,
    ranks.map((_, i) => i + 1),
    `${match.id}: roster ranks 1..N`,
  );
  const winners = match.rosters.filter((r) => r.won);
  assert.equal(winners.length, 1, 'exactly one winning roster');
  assert.equal(winners[0]!.rank, 1, 'the winner has rank 1');
  for (const roster of match.rosters) {
    for (const p of roster.participants)
      assert.equal(p.stats.winPlace, roster.rank, 'winPlace = roster rank');
  }

  const places = ps.map((p) => p.stats.killPlace).sort((a, b) => a - b);
  assert.deepEqual(
    places,
    places.map((_, i) => i + 1),
    'killPlace 1..N',
  );
  const byPlace = [...ps].sort((a, b) => a.stats.killPlace - b.stats.killPlace);
  for (let i = 1; i < byPlace.length; i++) {
    assert.ok(byPlace[i - 1]!.stats.kills >= byPlace[i]!.stats.kills, 'killPlace ordered by kills');
  }
  assert.equal(new Set(ps.map((p) => p.playerId)).size, ps.length, 'no player twice');

  for (const p of ps) {
    const s = p.stats;
    assert.ok(
      Number.isInteger(s.timeSurvived) && s.timeSurvived <= match.duration,
      'timeSurvived ≤ duration',
    );
    assert.ok(
      s.headshotKills <= s.kills && s.roadKills <= s.kills,
      'headshots and road kills are kills',
    );
    assert.equal(s.longestKill > 0, s.kills > 0, 'longestKill only with kills');
    assert.ok(s.walkDistance >= 0 && s.walkDistance <= 4_000, `walk ${s.walkDistance}`);
    assert.ok(
      s.rideDistance === 0 || (s.rideDistance >= 500 && s.rideDistance <= 6_000),
      `ride ${s.rideDistance}`,
    );
    assert.ok(s.swimDistance <= 600, `swim ${s.swimDistance}`);
    assert.ok(
      s.DBNOs <= 15 && s.assists <= 10 && s.revives <= 6 && s.boosts <= 14 && s.heals <= 22,
      'counters in bounds',
    );
    assert.ok(
      s.weaponsAcquired <= 20 && s.teamKills <= 2 && s.vehicleDestroys <= 2,
      'rare counters in bounds',
    );
    assert.ok(
      s.damageDealt >= 0 && s.damageDealt <= 200 * (s.kills + s.DBNOs + s.assists) + 400,
      `damage ${s.damageDealt}`,
    );
    if (s.deathType === 'alive' && !tdm)
      assert.equal(s.timeSurvived, match.duration, 'survivors last the match');
    if (match.gameMode.includes('solo'))
      assert.equal(s.DBNOs + s.revives, 0, 'no knocks or revives in solo');
  }

  if (tdm) {
    assert.equal(match.rosters.length, 2);
    assert.ok(
      match.rosters.every((r) => r.participants.length === 8),
      'TDM: 2 rosters of 8',
    );
    return;
  }
  const alive = ps.filter((p) => p.stats.deathType === 'alive');
  assert.ok(alive.length >= 1, 'someone survives');
  assert.ok(
    alive.every((p) => p.stats.winPlace === 1),
    'only winners survive',
  );
  const selfDeaths = ps.filter((p) =>
    ['byzone', 'suicide', 'logout'].includes(p.stats.deathType),
  ).length;
  const byPlayer = ps.filter((p) => p.stats.deathType === 'byplayer').length;
  const kills = sum(ps, (p) => p.stats.kills + p.stats.teamKills);
  assert.equal(kills, byPlayer, 'every kill is a death by player');
  assert.equal(
    kills + selfDeaths,
    ps.length - alive.length,
    'kills + other deaths = participants − survivors',
  );
}

/** The telemetry of a match agrees with its participants, stats and time window. */
export function assertConsistentTelemetry(match: MatchInput): void {
  const events = match.telemetry as Event[] | undefined;
  assert.ok(events && events.length > 0, 'telemetry present');
  const ps = participantsOf(match);
  const byId = new Map(ps.map((p) => [p.playerId, p]));
  const teamOf = new Map(
    match.rosters.flatMap((r) => r.participants.map((p) => [p.playerId, r.teamId] as const)),
  );
  const start = Date.parse(match.createdAt);
  const end = start + match.duration * 1000;

  const [definition, ...rest] = events;
  assert.equal(definition!._T, 'LogMatchDefinition');
  assert.match(definition!._D, DEFINITION_TIMESTAMP);
  assert.equal(definition!.common, undefined, 'LogMatchDefinition has no common');
  assert.match(
    String(definition!.MatchId),
    new RegExp(
      `^match\\.bro\\.official\\.[a-z0-9-]+\\.${match.platformShard}\\.${match.gameMode}\\.[a-z]+\\.\\d{4}\\.\\d{2}\\.\\d{2}\\.\\d{2}\\.${match.id}$`,
    ),
  );
  const definedAt = Date.parse(definition!._D);
  assert.ok(definedAt >= start && definedAt <= end, 'LogMatchDefinition inside the match');

  let previous = start;
  const extent = demoMap(match.mapName).extentCm;
  const count = (type: string): Event[] => rest.filter((e) => e._T === type);
  for (const e of rest) {
    assert.match(e._D, MS_TIMESTAMP, `${e._T} _D`);
    const at = Date.parse(e._D);
    assert.ok(at >= previous, `${e._T} in time order`);
    assert.ok(at <= end, `${e._T} before the match end`);
    previous = at;
    assert.equal(typeof (e.common as { isGame: number }).isGame, 'number', `${e._T} common.isGame`);
    for (const key of [
      'character',
      'attacker',
      'victim',
      'killer',
      'reviver',
      'finisher',
      'dBNOMaker',
    ]) {
      const c = e[key] as Character | null | undefined;
      if (!c) continue;
      const p = byId.get(c.accountId);
      assert.ok(p, `${e._T}.${key} is a participant`);
      assert.equal(c.name, p.name);
      assert.equal(c.teamId, teamOf.get(c.accountId));
      assert.ok(
        c.location.x >= 0 && c.location.x <= extent && c.location.y >= 0 && c.location.y <= extent,
        'inside the map',
      );
    }
  }

  const matchStart = count('LogMatchStart');
  assert.equal(matchStart.length, 1);
  assert.equal(
    (matchStart[0]!.characters as unknown[]).length,
    ps.length,
    'LogMatchStart lists everyone',
  );
  assert.equal(matchStart[0]!.blueZoneCustomOptions, '[]');
  const created = new Set(
    count('LogPlayerCreate').map((e) => (e.character as Character).accountId),
  );
  assert.deepEqual(
    [...created].sort(),
    ps.map((p) => p.playerId).sort(),
    'LogPlayerCreate per participant',
  );
  const logins = new Set(count('LogPlayerLogin').map((e) => e.accountId as string));
  assert.deepEqual(
    [...logins].sort(),
    ps
      .filter((p) => p.playerId.startsWith('account.'))
      .map((p) => p.playerId)
      .sort(),
    'LogPlayerLogin per player',
  );

  const kills = count('LogPlayerKillV2');
  const tally = (list: Event[], pick: (e: Event) => string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const e of list) for (const id of pick(e)) m.set(id, (m.get(id) ?? 0) + 1);
    return m;
  };
  const enemyKills = tally(kills, (e) => {
    const k = e.killer as Character | null;
    const v = e.victim as Character;
    return k && !e.isSuicide && k.teamId !== v.teamId ? [k.accountId] : [];
  });
  const teamKills = tally(kills, (e) => e.teamKillers_AccountId as string[]);
  const knocks = tally(count('LogPlayerMakeGroggy'), (e) => [(e.attacker as Character).accountId]);
  const revives = tally(count('LogPlayerRevive'), (e) => [(e.reviver as Character).accountId]);
  const assists = tally(kills, (e) => e.assists_AccountId as string[]);
  for (const p of ps) {
    assert.equal(enemyKills.get(p.playerId) ?? 0, p.stats.kills, `${p.name}: kill events = kills`);
    assert.equal(teamKills.get(p.playerId) ?? 0, p.stats.teamKills, `${p.name}: team kills`);
    assert.equal(knocks.get(p.playerId) ?? 0, p.stats.DBNOs, `${p.name}: knocks = DBNOs`);
    assert.equal(revives.get(p.playerId) ?? 0, p.stats.revives, `${p.name}: revives`);
    assert.equal(assists.get(p.playerId) ?? 0, p.stats.assists, `${p.name}: assists`);
  }

  const end_ = count('LogMatchEnd');
  assert.equal(end_.length, 1);
  for (const w of end_[0]!.characters as Array<{ character: Character }>) {
    assert.equal(
      w.character.ranking,
      byId.get(w.character.accountId)!.stats.winPlace,
      'final ranking = winPlace',
    );
  }
  const results = (end_[0]!.gameResultOnFinished as { results: Array<{ accountId: string }> })
    .results;
  const winners = match.rosters.find((r) => r.won)!.participants.map((p) => p.playerId);
  assert.deepEqual(
    results.map((r) => r.accountId).sort(),
    [...winners].sort(),
    'results of the winning team',
  );

  if (match.gameMode === 'tdm') {
    assert.equal(
      kills.length,
      sum(ps, (p) => p.stats.kills),
      'TDM: one kill event per kill',
    );
    return;
  }
  const dead = ps.filter((p) => p.stats.deathType !== 'alive');
  const victims = kills.map((e) => (e.victim as Character).accountId);
  assert.equal(new Set(victims).size, victims.length, 'one death each');
  const logouts = ps.filter((p) => p.stats.deathType === 'logout').map((p) => p.playerId);
  assert.deepEqual(
    [...victims, ...logouts].sort(),
    dead.map((p) => p.playerId).sort(),
    'a death event per dead participant',
  );
  const diedAt = new Map(kills.map((e) => [(e.victim as Character).accountId, Date.parse(e._D)]));
  for (const e of kills) {
    const killer = e.killer as Character | null;
    if (killer && !e.isSuicide)
      assert.ok(
        (diedAt.get(killer.accountId) ?? Infinity) >= Date.parse(e._D),
        'killers are alive',
      );
    const v = byId.get((e.victim as Character).accountId)!;
    const at = Date.parse(e._D);
    assert.equal(
      Math.min(match.duration, Math.floor((at - start) / 1000)),
      v.stats.timeSurvived,
      'death at timeSurvived',
    );
    if (v.stats.deathType === 'byzone') assert.equal(e.killer, null, 'zone deaths have no killer');
    if (v.stats.deathType === 'byplayer') assert.ok(e.killer, 'deaths by player have a killer');
  }
}
