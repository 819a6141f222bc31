/**
 * The small change of a match: doors opened and closed (LogObjectInteraction), windows, fences
 * and doors broken (LogObjectDestroy), props shot (LogPlayerDestroyProp), vaults and climbs
 * (LogVaultStart) — about as many per minute alive as the profile asks for.
 */
import type { TelemetryWriter } from './telemetry-writer.ts';
import { quarter } from './telemetry-world.ts';

const KINDS: ReadonlyArray<readonly ['door' | 'vault' | 'break' | 'prop', number]> = [
  ['door', 52],
  ['vault', 30],
  ['break', 14],
  ['prop', 4],
];
const BROKEN: ReadonlyArray<readonly [string, number]> = [
  ['Window', 6],
  ['Fence', 3],
  ['Door', 2],
];
const PROPS = ['PropaneTank', 'Jerrycan', 'GasPump', 'VendingMachine'];

/**
 * Fighter `i`'s ambient events: at least one, the first of kind `first` when given (the match's
 * first fighters take one kind each, so every kind shows up).
 */
export function emitAmbient(t: TelemetryWriter, i: number, first?: number): void {
  const { random, world, profile } = t;
  const f = t.fighters[i]!;
  const end = f.diedAt ?? t.input.battle.durationMs;
  const life = end - f.landedAt - 1_000;
  if (life <= 0) return;
  const count = Math.max(1, random.poisson((life / 60_000) * profile.ambientPerMinute));
  for (let k = 0; k < count; k++) {
    const at = Math.round(f.landedAt + 500 + random.next() * life);
    const character = t.character(i, at);
    const near = () => {
      const p = world.offset(character.location as never, random.float(0.5, 3), random);
      return { x: p.x, y: p.y, z: quarter(p.z + 100) };
    };
    const kind =
      k === 0 && first !== undefined ? KINDS[first % KINDS.length]![0] : random.weighted(KINDS);
    switch (kind) {
      case 'door': {
        const status = random.chance(0.6) ? 'Opening' : 'Closing';
        t.emit(at, {
          _T: 'LogObjectInteraction',
          character,
          objectType: random.chance(0.9) ? 'Door' : 'DoubleSlidingDoor',
          objectTypeStatus: status,
          objectTypeAdditionalInfo: [],
          common: null,
          _D: '',
        });
        break;
      }
      case 'vault':
        t.emit(at, {
          _T: 'LogVaultStart',
          character,
          isLedgeGrab: random.chance(0.3),
          isVaultOnVehicle: random.chance(0.05),
          common: null,
          _D: '',
        });
        break;
      case 'break':
        t.emit(at, {
          _T: 'LogObjectDestroy',
          character,
          objectType: random.weighted(BROKEN),
          objectLocation: near(),
          common: null,
          _D: '',
        });
        break;
      case 'prop':
        t.emit(at, {
          _T: 'LogPlayerDestroyProp',
          attacker: character,
          objectType: random.pick(PROPS),
          objectLocation: near(),
          common: null,
          _D: '',
        });
        break;
    }
  }
}
