import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemo } from '../../src/demo/generate-demo.ts';

// The demo is generated for whatever "now" the first start happens at; every instant must give
// playable matches (a crowded hour once produced a match without rosters).
for (const now of ['2026-11-21T06:00:00Z', '2027-02-03T23:30:00Z', '2026-07-14T13:17:00Z']) {
  test(`every demo match generated at ${now} has a winner among at least two rosters`, () => {
    const plan = generateDemo({ seed: 1, now: Date.parse(now), scale: 1, telemetry: false });
    let count = 0;
    for (const match of plan.matches()) {
      count++;
      assert.ok(
        match.rosters.length >= 2,
        `match ${count} (${match.gameMode}) has ${match.rosters.length} rosters`,
      );
      assert.equal(
        match.rosters.filter((r) => r.rank === 1 && r.won).length,
        1,
        `match ${count} has one winner`,
      );
    }
    assert.equal(count, plan.matchCount);
  });
}
