/**
 * The named areas of a map (`Character.zone`, official region ids): the map is cut into a grid
 * whose cells are either open country or one of the map's towns, so nearby characters agree.
 * Zone arrays are shared between events (never mutated).
 */
import type { DemoMap } from './maps.ts';
import type { Location } from './telemetry-world.ts';

const EMPTY: readonly string[] = Object.freeze([]);

export class NamedAreas {
  private readonly names: Array<readonly string[]>;
  private readonly extent: number;

  constructor(map: DemoMap) {
    this.names = map.zones.map((z) => Object.freeze([z]));
    this.extent = map.extentCm;
  }

  /** The area at a location; none in the air or in open country. */
  at(location: Location): readonly string[] {
    const n = this.names.length;
    if (n === 0 || location.z > 20_000) return EMPTY;
    const cell = this.extent / 10;
    const cx = Math.floor(location.x / cell);
    const cy = Math.floor(location.y / cell);
    if ((cx * 31 + cy * 17 + n) % 7 < 3) return EMPTY;
    return this.names[(cx * 7 + cy * 3) % n]!;
  }
}
