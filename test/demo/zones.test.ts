import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRandom } from '../../src/demo/random.ts';
import { ZONE_2X2, ZONE_8X8, ZonePlan } from '../../src/demo/zones.ts';

test('the zone closes in phase by phase, each circle inside the last, at the timings given', () => {
  const plan = new ZonePlan(createRandom(5), 816_000, ZONE_8X8, 60_000);
  assert.equal(
    plan.announcedAt[0],
    60_000 + 120_000,
    'the first circle two minutes after take-off',
  );
  assert.equal(plan.shrinkStartsAt[0], plan.announcedAt[0]! + 240_000);
  assert.equal(plan.announcedAt[1], plan.shrinkEndsAt[0], 'the next circle as the blue arrives');
  for (let k = 1; k < plan.circles.length; k++) {
    const [outer, inner] = [plan.circles[k - 1]!, plan.circles[k]!];
    assert.ok(Math.hypot(inner.x - outer.x, inner.y - outer.y) + inner.r <= outer.r + 1e-6);
  }
  assert.deepEqual(
    plan.phaseChanges.slice(0, 3).map((c) => c.phase),
    [1, 1, 2],
  );
});

test('outside() agrees with the blue zone at every instant, shrinking or not', () => {
  const random = createRandom(9);
  const plan = new ZonePlan(random, 204_000, ZONE_2X2, 10_000);
  for (let n = 0; n < 2_000; n++) {
    const at = random.int(0, 1_600_000);
    const x = random.float(0, 204_000);
    const y = random.float(0, 204_000);
    const c = plan.blueAt(at);
    assert.equal(plan.outside(x, y, at), Math.hypot(x - c.x, y - c.y) > c.r, `at ${at}`);
  }
});
