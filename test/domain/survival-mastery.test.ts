import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countsTowardSurvivalMastery,
  participantSurvivalValues,
  participantSurvivalXp,
  survivalLevel,
  survivalLevelXp,
  survivalStatSummary,
  survivalTier,
  telemetrySurvivalXp,
} from '../../src/domain/survival-mastery.ts';
import { hotDropLandings } from '../../src/domain/hot-drops.ts';

const STATS = {
  walkDistance: 1500.5,
  rideDistance: 2000,
  swimDistance: 39.5,
  damageDealt: 123.4,
  revives: 2,
  timeSurvived: 1234,
  winPlace: 7,
};

describe('survival mastery values', () => {
  test('come from the participant stats, distances summed', () => {
    assert.deepEqual(participantSurvivalValues(STATS), {
      damageDealt: 123.4,
      distanceBySwimming: 39.5,
      distanceByVehicle: 2000,
      distanceOnFoot: 1500.5,
      distanceTotal: 3540,
      position: 7,
      teammatesRevived: 2,
      timeSurvived: 1234,
      top10: 1,
    });
    assert.equal(participantSurvivalValues({ ...STATS, winPlace: 11 }).top10, 0);
  });

  test('XP: survival time, distance, revives and placement; heals, airdrops, crates, items, throws, hot drops', () => {
    // 123 (1234 s / 10) + 177 (3540 m / 20) + 50 (2 revives) + 50 (top 10, not a win)
    assert.equal(participantSurvivalXp(participantSurvivalValues(STATS)), 400);
    assert.equal(participantSurvivalXp(participantSurvivalValues({ ...STATS, winPlace: 1 })), 450);
    const telemetry = {
      healed: 101,
      airDropsCalled: 1,
      enemyCratesLooted: 2,
      uniqueItemsLooted: 10,
      throwablesThrown: 3,
      hotDropLandings: 1,
      revived: 4,
      damageTaken: 500,
    };
    assert.equal(telemetrySurvivalXp(telemetry), 20 + 10 + 20 + 20 + 15 + 25);
  });

  test('levels cost 2,000 XP plus 20 per level gained, up to 500; a tier per 100 levels', () => {
    assert.equal(survivalLevelXp(2), 2000);
    assert.equal(survivalLevelXp(3), 4020);
    assert.equal(survivalLevelXp(500), 3_483_020);
    assert.equal(survivalLevel(0), 1);
    assert.equal(survivalLevel(4019), 2);
    assert.equal(survivalLevel(4020), 3);
    assert.equal(survivalLevel(3_483_019), 499);
    assert.equal(survivalLevel(9_000_000), 500);
    assert.deepEqual([1, 100, 101, 300, 401, 500].map(survivalTier), [1, 1, 2, 3, 5, 5]);
  });

  test('averages divide by the matches that gave the value', () => {
    const totals = { total: 90, best: 50, last: 10 };
    const matches = { played: 3, withTelemetry: 2 };
    assert.equal(survivalStatSummary('timeSurvived', totals, matches).average, 30);
    assert.equal(survivalStatSummary('healed', totals, matches).average, 45);
    assert.equal(survivalStatSummary('healed', totals, { played: 3, withTelemetry: 0 }).average, 0);
  });

  test('battle royale matches count; custom, training and arcade do not', () => {
    const counts = (matchType: string, isCustomMatch = false) =>
      countsTowardSurvivalMastery({ matchType, isCustomMatch });
    assert.deepEqual(
      ['official', 'competitive', 'event', 'custom', 'training', 'arcade'].map((t) => counts(t)),
      [true, true, true, false, false, false],
    );
    assert.equal(counts('official', true), false);
  });
});

describe('hot drops', () => {
  const land = (accountId: string, teamId: number, metresX: number, metresY = 0) => ({
    accountId,
    teamId,
    x: metresX * 100,
    y: metresY * 100,
  });
  test('three players of other teams landing within 300 m make a hot drop', () => {
    const hot = hotDropLandings([
      land('a', 1, 0),
      land('mate', 1, 10),
      land('b', 2, 100),
      land('c', 2, 200),
      land('d', 3, 0, 300),
      land('far', 4, 5000),
    ]);
    // 'mate' has b and c near but d 300.2 m away; b and c have only team 1 near.
    assert.deepEqual([...hot], ['a']);
  });
  test('teammates do not make a drop hot', () => {
    assert.equal(
      hotDropLandings([land('a', 1, 0), land('b', 1, 1), land('c', 1, 2), land('d', 1, 3)]).size,
      0,
    );
  });
});
