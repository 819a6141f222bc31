/**
 * The demo's clans and banned players, entered through the same ingest inputs an operator uses
 * (clan and player status inputs, src/ingest/clan-input.ts). Runs after the demo's matches, so
 * every member and banned player is a stored player; the plan depends on the seed only, so a
 * second run changes nothing.
 *
 * Per game platform: about one clan per 40 stored players, each with 3–40 members (a few large
 * clans, many small ones); about 1 player in 250 with a temporary ban and 1 in 400 banned for
 * good. Everyone else stays Innocent, and most players stay clanless.
 */
import { GAME_PLATFORMS, type ClanInput, type PlayerStatusInput } from '../ingest/clan-input.ts';
import { ingestEntity } from '../ingest/ingest-entity.ts';
import type { IngestDeps } from '../ingest/ingest-match.ts';
import { findPlayersByIds } from '../store/players.ts';
import type { DemoPlayer } from './players.ts';
import { createRandom, deriveSeed, type Random } from './random.ts';

const PLAYERS_PER_CLAN = 40;
const TEMPORARY_BAN_RATE = 1 / 250;
const PERMANENT_BAN_RATE = 1 / 400;

// prettier-ignore
const CLAN_WORDS = [
  'Night', 'Iron', 'Silent', 'Golden', 'Crimson', 'Frozen', 'Savage', 'Lucky', 'Storm', 'Shadow',
  'Rapid', 'Royal', 'Wild', 'Lone', 'Cosmic', 'Rusty', 'Chicken', 'Pan', 'Zone', 'Redzone',
];
// prettier-ignore
const CLAN_NOUNS = [
  'Owls', 'Wolves', 'Ravens', 'Vipers', 'Legion', 'Squad', 'Syndicate', 'Reapers', 'Raiders',
  'Outlaws', 'Dinners', 'Campers', 'Bandits', 'Knights', 'Guardians', 'Hunters', 'Crew', 'Pack',
];

/** The clan and player status inputs of the demo for its stored players. */
export function planDemoClans(
  seed: number,
  storedPlayers: readonly DemoPlayer[],
): Array<ClanInput | PlayerStatusInput> {
  const inputs: Array<ClanInput | PlayerStatusInput> = [];
  for (const platform of GAME_PLATFORMS) {
    const random = createRandom(deriveSeed(seed, 'clans', platform));
    const pool = random.shuffle(storedPlayers.filter((p) => p.platform === platform));
    const clanCount = Math.floor(pool.length / PLAYERS_PER_CLAN);
    let next = 0;
    for (let c = 0; c < clanCount && next < pool.length; c++) {
      const size = Math.min(pool.length - next, 3 + Math.floor(37 * random.next() ** 3));
      const members = pool.slice(next, next + size).map((p) => p.accountId);
      next += size;
      inputs.push(clanOf(random, platform, members));
    }
    const banned = random.shuffle([...pool]);
    const temporary = Math.max(1, Math.round(pool.length * TEMPORARY_BAN_RATE));
    const permanent = Math.max(1, Math.round(pool.length * PERMANENT_BAN_RATE));
    banned.slice(0, temporary + permanent).forEach((player, i) => {
      inputs.push({
        kind: 'playerStatus',
        platform,
        accountId: player.accountId,
        banType: i < temporary ? 'TemporaryBan' : 'PermanentBan',
      });
    });
  }
  return inputs;
}

/** Ingests the demo's clans and bans for the players of `players` that the store holds. */
export async function ingestDemoClans(
  deps: IngestDeps,
  seed: number,
  players: readonly DemoPlayer[],
): Promise<void> {
  const stored: DemoPlayer[] = [];
  for (const platform of GAME_PLATFORMS) {
    const candidates = players.filter((p) => p.platform === platform);
    const found = await findPlayersByIds(
      deps.store.db,
      platform,
      candidates.map((p) => p.accountId),
    );
    stored.push(...candidates.filter((p) => found.has(p.accountId)));
  }
  for (const input of planDemoClans(seed, stored)) await ingestEntity(deps, input);
}

function clanOf(random: Random, platform: ClanInput['platform'], members: string[]): ClanInput {
  const word = random.pick(CLAN_WORDS);
  const noun = random.pick(CLAN_NOUNS);
  const tag = `${word.slice(0, 2)}${noun.slice(0, 2)}`.toUpperCase() + random.int(0, 9);
  return {
    kind: 'clan',
    platform,
    id: `clan.${random.hex(32)}`,
    name: `${word} ${noun}`,
    tag,
    level: 1 + Math.floor(19 * random.next() ** 2),
    members,
  };
}
