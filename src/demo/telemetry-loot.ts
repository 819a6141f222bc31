/**
 * Telemetry of looting: each kit's guns picked up (from the ground, or from a crate) and
 * equipped, attachments picked up, fitted and swapped, spare weapons from the ground or from the
 * loot boxes of those the fighter killed, helmets and vests (a better one replacing the worn
 * one), a backpack, ammunition. Pickups whose item is a `Weapon` add up to `weaponsAcquired`.
 */
import { AMMO, ATTACHMENTS, GEAR, PARACHUTE_ITEM, weaponItem, type Item } from './items.ts';
import type { Death } from './fighters.ts';
import { gunItem, type Kit } from './telemetry-kit.ts';
import type { TelemetryWriter } from './telemetry-writer.ts';
import { WEAPONS, type Weapon } from './weapons.ts';

const SPARES = WEAPONS.filter((w) => ['pistol', 'sg', 'smg', 'melee'].includes(w.weaponClass));
const RIFLES = WEAPONS.filter((w) => w.weaponClass === 'ar');

/** Writes one fighter's pickups and the like, none after they died (or the match ended). */
class FighterLoot {
  constructor(
    private readonly t: TelemetryWriter,
    private readonly i: number,
    private readonly end: number,
    /** Deaths by the fighter's hand, each leaving a loot box. */
    private readonly boxes: readonly Death[],
  ) {}

  /** An event of `type` about `item` (picked up, equipped, dropped…). */
  hold(type: string, at: number, item: Item): void {
    const { t, i } = this;
    if (at < this.end)
      t.emit(at, { _T: type, character: t.character(i, at), item, common: null, _D: '' });
  }

  /** A pickup, often from the loot box of someone the fighter killed a while before. */
  pickup(at: number, item: Item): void {
    const { t, i } = this;
    let box: Death | undefined;
    for (const d of this.boxes)
      if (d.at < at - 2_000) {
        box = d;
        break;
      }
    if (box && t.random.chance(0.6)) {
      const owner = t.fighters[box.victim]!;
      if (at < this.end)
        t.emit(at, {
          _T: 'LogItemPickupFromLootBox',
          character: t.character(i, at),
          item,
          ownerTeamId: owner.teamId,
          creatorAccountId: owner.playerId,
          common: null,
          _D: '',
        });
    } else this.hold('LogItemPickup', at, item);
  }
}

/** One fighter's loot events. */
export function emitLoot(t: TelemetryWriter, i: number, kit: Kit): void {
  const { random, profile } = t;
  const { battle, arena } = t.input;
  const f = t.fighters[i]!;
  const end = f.diedAt ?? battle.durationMs;
  const boxes: Death[] = [];
  for (const d of battle.deaths)
    if (d.killer === i && d.cause === 'player' && !d.teamKill) boxes.push(d);
  const loot = new FighterLoot(t, i, end, boxes);

  if (!arena && profile.name === 'full') {
    loot.hold('LogItemPickup', battle.matchStartAt, PARACHUTE_ITEM);
    loot.hold('LogItemEquip', battle.matchStartAt, PARACHUTE_ITEM);
    loot.hold('LogItemUnequip', f.landedAt, PARACHUTE_ITEM);
  }
  const full = profile.name === 'full';
  for (const [k, gun] of kit.guns.entries()) {
    const item = weaponItem(gun.weapon);
    if (gun.crate === undefined) loot.hold('LogItemPickup', gun.at, item);
    else if (gun.at < end)
      t.emit(gun.at, {
        _T: 'LogItemPickupFromCarepackage',
        character: t.character(i, gun.at),
        item,
        carePackageUniqueId: gun.crate,
        common: null,
        _D: '',
      });
    if (full || k < 2) loot.hold('LogItemEquip', gun.at + random.int(200, 1_500), item);
    for (const fitting of gun.fittings) {
      loot.hold(
        'LogItemPickup',
        Math.max(gun.at + 100, fitting.at - random.int(500, 20_000)),
        fitting.item,
      );
      fit(t, i, 'LogItemAttach', fitting.at, gun.weapon, kit, fitting.item);
      if (fitting.detachedAt < end)
        fit(t, i, 'LogItemDetach', fitting.detachedAt, gun.weapon, kit, fitting.item);
    }
  }

  // Spare weapons: picked up between fights, often from a victim's box, some dropped again.
  const window = Math.max(1, end - f.landedAt - 2_000);
  for (let k = 0; k < kit.spare; k++) {
    const weapon: Weapon = random.pick(arena ? RIFLES : SPARES);
    const at = Math.round(f.landedAt + 1_000 + random.next() * window);
    loot.pickup(at, weaponItem(weapon));
    if (random.chance(0.4))
      loot.hold('LogItemDrop', at + random.int(5_000, 200_000), weaponItem(weapon));
  }
  if (arena) return;

  let worn = { Headgear: null as Item | null, Vest: null as Item | null };
  for (const piece of kit.armour) {
    const slot = piece.item.subCategory as 'Headgear' | 'Vest';
    loot.pickup(piece.at, piece.item);
    const old = worn[slot];
    if (old) {
      loot.hold('LogItemUnequip', piece.at + 300, old);
      loot.hold('LogItemDrop', piece.at + 600, old);
    }
    loot.hold('LogItemEquip', piece.at + 900, piece.item);
    worn = { ...worn, [slot]: piece.item };
  }
  if (full) {
    const backpackAt = f.landedAt + random.int(5_000, 200_000);
    const backpack = GEAR.Backpack[random.int(0, 2)]!;
    loot.pickup(backpackAt, backpack);
    loot.hold('LogItemEquip', backpackAt + 500, backpack);
  }

  // Ammunition and spare attachments, as often as the profile samples them.
  const count = random.poisson((window / 60_000) * profile.lootPerMinute);
  for (let k = 0; k < count; k++) {
    const at = Math.round(f.landedAt + 1_000 + random.next() * window);
    const item = random.chance(0.65) ? random.pick(AMMO) : random.pick(ATTACHMENTS);
    loot.pickup(at, item);
    if (item.category === 'Attachment' && random.chance(0.5))
      loot.hold('LogItemDrop', at + random.int(10_000, 300_000), item);
  }
}

function fit(
  t: TelemetryWriter,
  i: number,
  type: 'LogItemAttach' | 'LogItemDetach',
  at: number,
  weapon: Weapon,
  kit: Kit,
  child: Item,
): void {
  const f = t.fighters[i]!;
  if (at >= (f.diedAt ?? t.input.battle.durationMs)) return;
  t.emit(at, {
    _T: type,
    character: t.character(i, at),
    parentItem: gunItem(kit, weapon, type === 'LogItemAttach' ? at : at - 1),
    childItem: child,
    common: null,
    _D: '',
  });
}
