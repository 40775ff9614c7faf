import type { Level, LevelBlend, Track, TrackId } from './types.js';

export const TRACKS: readonly Track[] = [
  { id: 'tr_s', code: 'S', title: 'Support', description: 'Operational and support roles with defined procedures.', sortOrder: 1 },
  { id: 'tr_p', code: 'P', title: 'Professional', description: 'Individual contributors in professional and technical roles.', sortOrder: 2 },
  { id: 'tr_m', code: 'M', title: 'Management', description: 'People managers, from first-line managers to senior directors.', sortOrder: 3 },
  {
    id: 'trbl_pm',
    code: 'P/M',
    title: 'Professional and management blend',
    description: 'Professional and management levels of the same grade priced together.',
    sortOrder: 4,
  },
  { id: 'tr_vp', code: 'VP', title: 'Vice president', description: 'Vice presidents and senior vice presidents.', sortOrder: 5 },
  { id: 'tr_c', code: 'C', title: 'Executive', description: 'C-level executives and the chief executive.', sortOrder: 6 },
];

const TRACK_BY_ID = new Map(TRACKS.map((track) => [track.id, track]));

function trackOf(id: TrackId): Track {
  const track = TRACK_BY_ID.get(id);
  if (!track) throw new Error(`Unknown track ${id}`);
  return track;
}

function level(code: string, trackId: TrackId, rank: number, title: string, description: string): Level {
  const track = trackOf(trackId);
  return {
    id: code.toLowerCase(),
    upstreamId: code.toLowerCase(),
    track: track.id,
    trackCode: track.code,
    trackSortOrder: track.sortOrder,
    title,
    extendedTitle: `${code} · ${title}`,
    description,
    displayString: code,
    extendedDisplayString: `${code} (${title})`,
    levelRank: rank,
    isSearchable: true,
  };
}

export const LEVELS: readonly Level[] = [
  level('S1', 'tr_s', 1, 'Associate', 'Entry support role working on routine tasks under close supervision.'),
  level('S2', 'tr_s', 2, 'Specialist', 'Experienced support role handling most situations independently.'),
  level('S3', 'tr_s', 3, 'Senior specialist', 'Expert support role who handles escalations and guides others.'),
  level('P1', 'tr_p', 1, 'Entry', 'Learns the role; works on well-defined tasks with guidance.'),
  level('P2', 'tr_p', 2, 'Developing', 'Delivers scoped work independently; still building depth.'),
  level('P3', 'tr_p', 3, 'Career', 'Fully proficient; owns projects end to end.'),
  level('P4', 'tr_p', 4, 'Senior', 'Leads complex projects and mentors others; recognised expert in the team.'),
  level('P5', 'tr_p', 5, 'Staff', 'Sets technical or functional direction across teams.'),
  level('P6', 'tr_p', 6, 'Principal', 'Shapes direction across the organisation; industry-level expertise.'),
  level('M3', 'tr_m', 3, 'Manager', 'Manages a team of individual contributors.'),
  level('M4', 'tr_m', 4, 'Senior manager', 'Manages managers or a large team; owns a function area.'),
  level('M5', 'tr_m', 5, 'Director', 'Leads a department; sets goals and budgets for several teams.'),
  level('M6', 'tr_m', 6, 'Senior director', 'Leads a large department or several functions.'),
  level('E7', 'tr_vp', 7, 'Vice president', 'Leads a function company-wide; reports to an executive.'),
  level('E8', 'tr_vp', 8, 'Senior vice president', 'Leads several functions; part of the senior leadership team.'),
  level('E9', 'tr_c', 9, 'C-level executive', 'Chief executive or a C-level officer reporting to the CEO.'),
];

/** The level whose selection makes founder type mandatory on every market filter. */
export const FOUNDER_LEVEL_ID = 'e9';

function blend(id: string, display: string, trackId: TrackId, rank: number, title: string, sublevels: string[]): LevelBlend {
  const track = trackOf(trackId);
  return {
    id,
    upstreamId: id,
    track: track.id,
    trackCode: track.code,
    trackSortOrder: track.sortOrder,
    title,
    extendedTitle: `${display} · ${title}`,
    description: `Records of ${sublevels.map((s) => s.toUpperCase()).join(' and ')} priced together.`,
    displayString: display,
    extendedDisplayString: `${display} (${title})`,
    levelRank: rank,
    isSearchable: true,
    sublevels,
  };
}

export const LEVEL_BLENDS: readonly LevelBlend[] = [
  blend('lb_s1_s2', 'S1–S2', 'tr_s', 1, 'Associate and specialist', ['s1', 's2']),
  blend('lb_p1_p2', 'P1–P2', 'tr_p', 1, 'Early career', ['p1', 'p2']),
  blend('lb_p3_m3', 'P3 / M3', 'trbl_pm', 3, 'Career and manager', ['p3', 'm3']),
  blend('lb_p4_m4', 'P4 / M4', 'trbl_pm', 4, 'Senior and senior manager', ['p4', 'm4']),
  blend('lb_p5_m5', 'P5 / M5', 'trbl_pm', 5, 'Staff and director', ['p5', 'm5']),
  blend('lb_p6_m6', 'P6 / M6', 'trbl_pm', 6, 'Principal and senior director', ['p6', 'm6']),
  blend('lb_e7_e8', 'E7–E8', 'tr_vp', 7, 'Vice presidents', ['e7', 'e8']),
];
