/**
 * The weapon mastery document (REFERENCE §3.14): a `weaponMasterySummary` resource whose id is
 * the account id, with one summary per weapon the player used, keyed by item id in byte order.
 * StatsTotal counts every counted match; OfficialStatsTotal and CompetitiveStatsTotal the normal
 * and the ranked ones, with DamagePlayer and LongestKill whole numbers as the real service sends
 * them. `seasonId` is "" as in today's service (mastery is career-long).
 */
import {
  WEAPON_MATCH_KINDS,
  emptyWeaponTotals,
  mergeWeaponTotals,
  weaponLevel,
  weaponTier,
  type WeaponCareer,
  type WeaponMasteryCareer,
  type WeaponTotals,
} from '../domain/weapon-mastery.ts';

export interface WeaponMasteryView {
  accountId: string;
  /** The platform as the requesting client spells it (`steam` for pc-b …). */
  platform: string;
  career: WeaponMasteryCareer;
}

const json = JSON.stringify;
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function renderWeaponMastery(view: WeaponMasteryView, selfUrl: string): string {
  const weapons = [...view.career.weapons]
    .sort((a, b) => byteOrder(a.weaponId, b.weaponId))
    .map((weapon) => `${json(weapon.weaponId)}:${renderWeaponSummary(weapon)}`)
    .join(',');
  return (
    `{"data":{"type":"weaponMasterySummary","id":${json(view.accountId)},` +
    `"attributes":{"platform":${json(view.platform)},"seasonId":"",` +
    `"latestMatchId":${json(view.career.latestMatchId)},"weaponSummaries":{${weapons}}}},` +
    `"links":{"self":${json(selfUrl)}},"meta":{}}`
  );
}

function renderWeaponSummary(weapon: WeaponCareer): string {
  const total = WEAPON_MATCH_KINDS.reduce(
    (sum, kind) => mergeWeaponTotals(sum, weapon.kinds.get(kind) ?? emptyWeaponTotals()),
    emptyWeaponTotals(),
  );
  const level = weaponLevel(total.xp);
  const medals = [...weapon.medals]
    .sort((a, b) => byteOrder(a.medalId, b.medalId))
    .map((medal) => `{"MedalId":${json(medal.medalId)},"Count":${medal.count}}`)
    .join(',');
  return (
    `{"XPTotal":${total.xp},"LevelCurrent":${level},"TierCurrent":${weaponTier(level)},` +
    `"StatsTotal":${json(statsTotal(total))},` +
    `"OfficialStatsTotal":${json(kindTotal(weapon.kinds.get('official')))},` +
    `"CompetitiveStatsTotal":${json(kindTotal(weapon.kinds.get('competitive')))},` +
    `"Medals":[${medals}]}`
  );
}

function statsTotal(t: WeaponTotals): Record<string, number> {
  return {
    MostDefeatsInAGame: t.mostDefeats,
    Defeats: t.defeats,
    MostDamagePlayerInAGame: t.mostDamagePlayer,
    DamagePlayer: t.damagePlayer,
    MostHeadShotsInAGame: t.mostHeadShots,
    HeadShots: t.headShots,
    LongestDefeat: t.longestDefeat,
    LongRangeDefeats: t.longRangeDefeats,
    Kills: t.kills,
    MostKillsInAGame: t.mostKills,
    Groggies: t.groggies,
    MostGroggiesInAGame: t.mostGroggies,
  };
}

function kindTotal(totals: WeaponTotals | undefined): Record<string, number> {
  const t = totals ?? emptyWeaponTotals();
  return {
    MostDefeatsInAGame: t.mostDefeats,
    Defeats: t.defeats,
    DamagePlayer: Math.round(t.damagePlayer),
    HeadShots: t.headShots,
    Kills: t.kills,
    MostKillsInAGame: t.mostKills,
    Groggies: t.groggies,
    LongestKill: Math.round(t.longestKill),
  };
}
