/**
 * The survival mastery document (REFERENCE §3.15): a `survivalMasterySummary` resource whose id
 * is the account id, with xp, level, tier, matches played, the last match (as `lastMatchId`, the
 * recorded spelling, and `latestMatchId`, the documented one) and every stat in the members the
 * real payload gives it: hotDropLandings and top10 only a total, position no total.
 */
import {
  SURVIVAL_STATS,
  survivalLevel,
  survivalStatSummary,
  survivalTier,
  type SurvivalCareer,
} from '../domain/survival-mastery.ts';

export interface SurvivalMasteryView {
  accountId: string;
  /** Null for a known player with no counted match yet: everything zero, level and tier 1. */
  career: SurvivalCareer | null;
}

const json = JSON.stringify;

export function renderSurvivalMastery(view: SurvivalMasteryView, selfUrl: string): string {
  const career = view.career;
  const xp = career?.xp ?? 0;
  const level = survivalLevel(xp);
  const matches = {
    played: career?.matchesPlayed ?? 0,
    withTelemetry: career?.telemetryMatches ?? 0,
  };
  const stats = SURVIVAL_STATS.map(({ key, shows }) => {
    const s = survivalStatSummary(
      key,
      career?.stats[key] ?? { total: 0, best: 0, last: 0 },
      matches,
    );
    const members =
      shows === 'total'
        ? { total: s.total }
        : shows === 'noTotal'
          ? { average: s.average, careerBest: s.careerBest, lastMatchValue: s.lastMatchValue }
          : s;
    return `${json(key)}:${json(members)}`;
  }).join(',');
  const lastMatchId = json(career?.lastMatchId ?? '');
  return (
    `{"data":{"type":"survivalMasterySummary","id":${json(view.accountId)},` +
    `"attributes":{"xp":${xp},"tier":${survivalTier(level)},"level":${level},` +
    `"totalMatchesPlayed":${matches.played},"lastMatchId":${lastMatchId},` +
    `"latestMatchId":${lastMatchId},"stats":{${stats}}}},` +
    `"links":{"self":${json(selfUrl)}},"meta":{}}`
  );
}
