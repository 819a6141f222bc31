/**
 * The clan document (REFERENCE §3.16): a `clan` resource with its name, tag, level and member
 * count, `links.self` and `meta`.
 */

export interface ClanView {
  id: string;
  name: string;
  tag: string;
  level: number;
  memberCount: number;
}

const json = JSON.stringify;

export function renderClan(clan: ClanView, selfUrl: string): string {
  return (
    `{"data":{"type":"clan","id":${json(clan.id)},"attributes":{"clanName":${json(clan.name)},` +
    `"clanTag":${json(clan.tag)},"clanLevel":${clan.level},"clanMemberCount":${clan.memberCount}}},` +
    `"links":{"self":${json(selfUrl)}},"meta":{}}`
  );
}
