/**
 * Gamer tags, bot names and pro-player names built from word parts, digits, separators and
 * casing, flavoured by the player's region. Names are at most 16 characters; uniqueness is the
 * caller's business (see `NameRegistry`).
 */
import type { Random } from './random.ts';

export type NameCulture = 'en' | 'ru' | 'latam' | 'kr' | 'jp' | 'cn' | 'sea';

// prettier-ignore
const ADJECTIVES = [
  'dark', 'silent', 'lucky', 'crazy', 'mad', 'toxic', 'sneaky', 'lazy', 'angry', 'frozen', 'iron',
  'golden', 'wild', 'brave', 'lone', 'red', 'black', 'grey', 'swift', 'quiet', 'salty', 'spicy',
  'rusty', 'holy', 'evil', 'little', 'big', 'sleepy', 'hyper', 'royal', 'savage', 'rapid', 'deadly',
  'chill', 'cosmic', 'lost', 'broken', 'fat', 'tiny', 'shy', 'sly', 'grim', 'noisy', 'clumsy',
];
// prettier-ignore
const NOUNS = [
  'wolf', 'fox', 'bear', 'tiger', 'panda', 'ghost', 'reaper', 'sniper', 'hunter', 'ninja', 'viking',
  'samurai', 'pirate', 'raven', 'falcon', 'eagle', 'shark', 'cobra', 'viper', 'dragon', 'phoenix',
  'knight', 'rogue', 'bandit', 'outlaw', 'soldier', 'medic', 'camper', 'chicken', 'potato', 'noob',
  'legend', 'shadow', 'storm', 'blade', 'bullet', 'pan', 'bandage', 'goose', 'duck', 'llama',
  'moose', 'badger', 'otter', 'sloth', 'toast', 'pickle', 'waffle', 'taco', 'nugget', 'muffin',
];
// prettier-ignore
const FIRST_NAMES: Readonly<Record<NameCulture, readonly string[]>> = {
  en: [
    'alex', 'max', 'jake', 'ryan', 'tyler', 'josh', 'chris', 'nick', 'tom', 'sam', 'ben', 'luke',
    'jonas', 'lukas', 'felix', 'emil', 'oskar', 'timo', 'leon', 'pierre', 'hugo', 'marco', 'luca',
    'niels', 'jan', 'kuba', 'mateo', 'liam', 'noah', 'ethan', 'mason', 'kai', 'finn', 'ollie',
  ],
  ru: [
    'dima', 'sasha', 'vova', 'misha', 'kolya', 'serega', 'artem', 'ivan', 'oleg', 'denis', 'maks',
    'zhenya', 'vanya', 'petya', 'igor', 'yura', 'anton', 'kirill', 'nikita', 'egor',
  ],
  latam: [
    'pedro', 'joao', 'mateus', 'rafa', 'diego', 'lucas', 'gabriel', 'thiago', 'bruno', 'carlos',
    'juan', 'santi', 'nacho', 'pablo', 'felipe', 'gustavo', 'caio', 'vini', 'leo',
  ],
  kr: [
    'minjun', 'jisung', 'hyun', 'seojun', 'dohyun', 'jiho', 'junho', 'minsu', 'taeyang', 'woojin',
    'sungmin', 'yejun', 'hajun', 'jaewon', 'kim', 'park', 'lee', 'choi', 'jung',
  ],
  jp: [
    'haruto', 'ren', 'kenji', 'yuto', 'sota', 'riku', 'takumi', 'kaito', 'daiki', 'shun', 'yuki',
    'hiro', 'tsubasa', 'kazu', 'sora', 'akira', 'ryo', 'taku',
  ],
  cn: [
    'wei', 'chen', 'lin', 'hao', 'jun', 'xiao', 'long', 'feng', 'yang', 'zhang', 'liu', 'wang',
    'ming', 'tian', 'yu', 'bo', 'kai', 'lei',
  ],
  sea: [
    'arif', 'budi', 'rizky', 'nguyen', 'minh', 'tuan', 'somchai', 'anan', 'joko', 'putra', 'adit',
    'fajar', 'bayu', 'khoa', 'duc', 'kiet', 'nat',
  ],
};
// prettier-ignore
const LOCAL_WORDS: Readonly<Record<NameCulture, readonly string[]>> = {
  en: ['chicken', 'dinner', 'camp', 'loot', 'drop', 'frag', 'clutch', 'zone', 'crate'],
  ru: ['bratishka', 'medved', 'zloy', 'tanker', 'kotik', 'volk', 'pulya', 'boss', 'sibir'],
  latam: ['loco', 'perro', 'gato', 'chico', 'monstro', 'rei', 'brabo', 'pistola', 'fuego'],
  kr: ['dakgoo', 'jjang', 'daebak', 'hwaiting', 'oppa', 'gosu', 'hobak', 'sarang'],
  jp: ['neko', 'kuma', 'ninja', 'kitsune', 'sakura', 'ramen', 'oni', 'yami', 'tora'],
  cn: ['longwang', 'xiaomao', 'laohu', 'tianshi', 'shen', 'feiji', 'dage', 'xiaolong'],
  sea: ['gajah', 'harimau', 'kancil', 'raja', 'bintang', 'mabuhay', 'lahat', 'kopi'],
};
// prettier-ignore
const SYLLABLES = [
  'ka', 'ro', 'zen', 'vex', 'lu', 'mi', 'tra', 'kor', 'xi', 'dra', 'no', 'vi', 'zo', 'rix', 'ta',
  'nex', 'sha', 'qu', 'bel', 'mor', 'fy', 'jin', 'ash', 'el',
];
const PREFIXES = ['x', 'xX', 'The', 'Mr', 'iam', 'its', 'z', 'Sir', 'Dr', 'Real', 'Not', 'ttv_'];
const SUFFIXES = ['TV', 'YT', 'GG', 'Pro', 'OG', 'x', 'z', 'HD', 'ttv', 'Jr', 'XD'];
const LEET: Readonly<Record<string, string>> = { o: '0', e: '3', i: '1', a: '4', s: '5' };

const cap = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function digits(random: Random): string {
  return random.weighted<() => string>([
    [() => String(random.int(1, 99)), 4],
    [() => String(random.int(85, 99) + 1900).slice(-2), 2],
    [() => String(random.int(1985, 2010)), 2],
    [() => String(random.int(100, 9999)), 3],
    [() => '0' + random.int(0, 9), 1],
    [() => '777', 0.3],
    [() => '69', 0.3],
  ])();
}

function syllableWord(random: Random): string {
  let word = '';
  for (let i = random.int(2, 3); i > 0; i--) word += random.pick(SYLLABLES);
  return word;
}

function leet(word: string, random: Random): string {
  return [...word].map((ch) => (LEET[ch] && random.chance(0.5) ? LEET[ch] : ch)).join('');
}

/** Applies a casing style to lower-case parts and joins them. */
function joinParts(parts: string[], random: Random, spaces: boolean): string {
  const separator = random.weighted([
    ['', 6],
    ['_', 3],
    ['-', 1],
    ...(spaces ? [[' ', 3] as const] : []),
  ]);
  const style = random.weighted([
    ['camel', 6],
    ['lower', 4],
    ['upper', 1],
    ['first', 2],
  ]);
  const cased =
    style === 'camel'
      ? parts.map(cap)
      : style === 'upper'
        ? parts.map((p) => p.toUpperCase())
        : style === 'first'
          ? parts.map((p, i) => (i === 0 ? cap(p) : p))
          : parts;
  return cased.join(separator);
}

/**
 * One gamer tag in the style of a region's players (spaces only where the platform allows them).
 */
export function gamerTag(random: Random, culture: NameCulture, spaces = false): string {
  for (;;) {
    const first = random.pick(FIRST_NAMES[culture]);
    const local = random.pick(LOCAL_WORDS[culture]);
    const kind = random.weightedIndex([5, 4, 3, 2, 2, 2, 2]);
    let name: string;
    if (kind === 0) name = joinParts([random.pick(ADJECTIVES), random.pick(NOUNS)], random, spaces);
    else if (kind === 1)
      name = joinParts([first], random, false) + (random.chance(0.2) ? '_' : '') + digits(random);
    else if (kind === 2)
      name = joinParts(
        [
          random.chance(0.5) ? local : random.pick(NOUNS),
          random.chance(0.6) ? digits(random) : first,
        ],
        random,
        spaces,
      );
    else if (kind === 3)
      name =
        random.pick(PREFIXES) +
        cap(random.pick(NOUNS)) +
        (random.chance(0.4) ? 'Xx'.slice(0, random.int(1, 2)) : '');
    else if (kind === 4)
      name = leet(joinParts([random.pick(ADJECTIVES), random.pick(NOUNS)], random, false), random);
    else if (kind === 5)
      name = cap(syllableWord(random)) + (random.chance(0.6) ? digits(random) : '');
    else
      name =
        joinParts([random.pick(NOUNS), first], random, spaces) +
        (random.chance(0.3) ? random.pick(SUFFIXES) : '');
    if (name.length >= 3 && name.length <= 16 && !name.startsWith(' ') && !name.endsWith(' '))
      return name;
  }
}

// prettier-ignore
const BOT_PARTS = [
  'lap', 'by', 'asked', 'mint', 'wade', 'card', 'fern', 'hollow', 'grim', 'rill', 'page', 'oak',
  'ward', 'lime', 'tusk', 'vale', 'reed', 'bolt', 'crest', 'dune', 'fold', 'glen', 'hart', 'keel',
  'loft', 'marsh', 'nook', 'pike', 'quill', 'rook', 'sage', 'tarn', 'vane', 'wisp', 'yarn', 'zest',
  'over', 'under', 'some',
];

/** A bot's name: two or three fused lower-case words with a capital, like the game's AI players. */
export function botName(random: Random): string {
  let name = '';
  for (let i = random.chance(0.3) ? 3 : 2; i > 0; i--) name += random.pick(BOT_PARTS);
  return cap(name).slice(0, 16);
}

/** A team tag for esports rosters, 2–4 capitals. */
export function teamTag(random: Random): string {
  let tag = '';
  for (let i = random.int(2, 4); i > 0; i--) tag += String.fromCharCode(65 + random.int(0, 25));
  return tag;
}

/** A pro player's name, `<TAG>_<Nick>`. */
export function proName(random: Random, tag: string): string {
  for (;;) {
    const nick = random.chance(0.6)
      ? cap(syllableWord(random))
      : cap(random.pick(NOUNS)) + (random.chance(0.3) ? random.int(1, 9) : '');
    const name = `${tag}_${nick}`;
    if (name.length <= 16) return name;
  }
}

/**
 * Hands out names unique per platform, ignoring case (names differing only by case are refused).
 */
export class NameRegistry {
  private readonly taken = new Set<string>();

  /** Calls `make` until it returns a name not yet taken, registers and returns it. */
  claim(make: () => string): string {
    for (;;) {
      const name = make();
      const key = name.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return name;
      }
    }
  }
}
