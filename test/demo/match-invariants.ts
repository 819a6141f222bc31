/**
 * The consistency rules every generated match obeys, as assertions: placements, kill and death
 * accounting and stat bounds (the telemetry's rules are in telemetry-invariants.ts).
 */
import assert from 'node:assert/strict';
import type { MatchInput, ParticipantInput } from '../../src/ingest/match-input.ts';

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
      s.DBNOs <= 25 && s.assists <= 10 && s.revives <= 6 && s.boosts <= 14 && s.heals <= 22,
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
