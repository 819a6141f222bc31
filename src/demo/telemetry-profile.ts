/**
 * How much telemetry a generated match carries. Both profiles tell the same match with every
 * event kind, every player and the same totals (damage, heals, distances …); they differ in how
 * finely the continuous parts are sampled:
 *
 * - `default`: positions and game states once a minute, a shot per hit, one heal event per use,
 *   a sprinkle of doors and vaults — a few thousand events per 100-player match, so the demo
 *   loads quickly;
 * - `full`: the real service's rates — a position and a game state every 10 s, missed shots,
 *   heal and zone damage ticks, the doors, windows and vaults of a real match — 20–40 MB per
 *   100-player match, for testing replay tools and ingest speed.
 */

export const TELEMETRY_PROFILES = ['default', 'full'] as const;
export type TelemetryProfileName = (typeof TELEMETRY_PROFILES)[number];

export interface TelemetryProfile {
  name: TelemetryProfileName;
  /** Gap between two LogPlayerPosition events of a living player, ms (never more). */
  positionEveryMs: number;
  /** Gap between two LogGameStatePeriodic events, ms. */
  gameStateEveryMs: number;
  /** Mean HP one shot takes: a hit of 90 HP is told as about 90 / this many shots. */
  damagePerShot: number;
  /** Mean attacks that miss, per shot that hits. */
  missesPerShot: number;
  /** Blue-zone and bleed-out damage: ms between two ticks (one tick per exposure when 0). */
  damageTickMs: number;
  /** LogHeal ticks: heals and boosts restore over several events (else one event per heal). */
  healTicks: boolean;
  /** Doors opened, windows broken, vaults … per player and minute alive. */
  ambientPerMinute: number;
  /** Ammunition, attachments and spare gear picked up per player and minute alive. */
  lootPerMinute: number;
}

export const TELEMETRY_PROFILE: Readonly<Record<TelemetryProfileName, TelemetryProfile>> = {
  default: {
    name: 'default',
    positionEveryMs: 60_000,
    gameStateEveryMs: 60_000,
    damagePerShot: 70,
    missesPerShot: 0,
    damageTickMs: 0,
    healTicks: false,
    ambientPerMinute: 0.08,
    lootPerMinute: 0.08,
  },
  full: {
    name: 'full',
    positionEveryMs: 10_000,
    gameStateEveryMs: 10_000,
    damagePerShot: 10,
    missesPerShot: 3.5,
    damageTickMs: 1_000,
    healTicks: true,
    ambientPerMinute: 8,
    lootPerMinute: 7,
  },
};

export function isTelemetryProfile(value: string): value is TelemetryProfileName {
  return (TELEMETRY_PROFILES as readonly string[]).includes(value);
}
