import { COUNTRIES, REGION_IDS, REGION_NAMES, type RegionId } from './countries.js';
import type { Location } from './types.js';

export const UNITED_STATES_ID = '840';
export const CANADA_ID = '124';
export const UNITED_KINGDOM_ID = '826';
export const GERMANY_ID = '276';
export const EUROPE_ID: RegionId = REGION_IDS.europe;
export const AMERICAS_ID: RegionId = REGION_IDS.americas;

interface Area {
  id: string;
  name: string;
  kind: 'region' | 'country' | 'tier';
  parentId: string | null;
  globalRegion: string;
  country: string | null;
  currencyCode: string;
  description: string;
  aliases?: string[];
}

function area(draft: Area): Location {
  return {
    paybenchLocationId: draft.id,
    paybenchLocationName: draft.name,
    kind: draft.kind,
    description: draft.description,
    parentId: draft.parentId,
    marketTierLocationId: draft.kind === 'tier' ? draft.id : null,
    locationAliases: draft.aliases ?? [],
    globalRegion: draft.globalRegion,
    country: draft.country,
    state: null,
    coordinates: null,
    currencyCode: draft.currencyCode,
    isFree: draft.id === UNITED_STATES_ID,
    isAvailable: true,
    isReleased: true,
    isReleasedExecComp: draft.kind !== 'tier',
    isSearchableOfferInsights: true,
  };
}

type MetroRow = [id: string, name: string, state: string | null, latitude: number, longitude: number, aliases: string[]];

interface MetroGroup {
  parentId: string;
  globalRegion: string;
  country: string;
  currencyCode: string;
  metros: MetroRow[];
}

function metros(group: MetroGroup): Location[] {
  return group.metros.map(([id, name, state, latitude, longitude, aliases]) => ({
    paybenchLocationId: id,
    paybenchLocationName: name,
    kind: 'metro',
    description: `${name} metropolitan area`,
    parentId: group.parentId,
    marketTierLocationId: group.parentId,
    locationAliases: aliases,
    globalRegion: group.globalRegion,
    country: group.country,
    state,
    coordinates: { latitude, longitude },
    currencyCode: group.currencyCode,
    isFree: false,
    isAvailable: true,
    isReleased: true,
    isReleasedExecComp: true,
    isSearchableOfferInsights: true,
  }));
}

const US = { globalRegion: 'North America', country: 'US', currencyCode: 'USD' };

/** The countries the catalog divides into metros (and the US into tiers), with Europe. */
const METRO_AREAS: readonly Location[] = [
  area({
    id: UNITED_STATES_ID,
    name: 'United States',
    kind: 'country',
    parentId: AMERICAS_ID,
    ...US,
    description: 'All US metros, and the rest of the country.',
  }),
  area({
    id: '840_1',
    name: 'US Tier 1',
    kind: 'tier',
    parentId: UNITED_STATES_ID,
    ...US,
    description: 'Highest-paying US markets: San Francisco Bay Area, New York City and Seattle.',
  }),
  area({ id: '840_2', name: 'US Tier 2', kind: 'tier', parentId: UNITED_STATES_ID, ...US, description: 'Nine high-cost US metros.' }),
  area({ id: '840_3', name: 'US Tier 3', kind: 'tier', parentId: UNITED_STATES_ID, ...US, description: 'Other US metros.' }),
  ...metros({
    parentId: '840_1',
    ...US,
    metros: [
      ['us_sf_bay_area', 'San Francisco Bay Area', 'CA', 37.7749, -122.4194, ['San Francisco', 'San Jose', 'Oakland', 'Palo Alto', 'Silicon Valley', 'SF']],
      ['us_new_york', 'New York City', 'NY', 40.7128, -74.006, ['NYC', 'New York', 'Manhattan', 'Brooklyn', 'Jersey City']],
      ['us_seattle', 'Seattle', 'WA', 47.6062, -122.3321, ['Bellevue', 'Redmond', 'Tacoma']],
    ],
  }),
  ...metros({
    parentId: '840_2',
    ...US,
    metros: [
      ['us_boston', 'Boston', 'MA', 42.3601, -71.0589, ['Cambridge', 'Somerville', 'Waltham']],
      ['us_los_angeles', 'Los Angeles', 'CA', 34.0522, -118.2437, ['LA', 'Santa Monica', 'Irvine', 'Pasadena']],
      ['us_san_diego', 'San Diego', 'CA', 32.7157, -117.1611, ['La Jolla', 'Carlsbad']],
      ['us_washington_dc', 'Washington, D.C.', 'DC', 38.9072, -77.0369, ['DC', 'Arlington', 'Reston', 'Bethesda']],
      ['us_austin', 'Austin', 'TX', 30.2672, -97.7431, ['Round Rock']],
      ['us_denver', 'Denver', 'CO', 39.7392, -104.9903, ['Boulder', 'Aurora']],
      ['us_chicago', 'Chicago', 'IL', 41.8781, -87.6298, ['Evanston']],
      ['us_portland', 'Portland', 'OR', 45.5152, -122.6784, ['Beaverton', 'Hillsboro']],
      ['us_sacramento', 'Sacramento', 'CA', 38.5816, -121.4944, ['Roseville']],
    ],
  }),
  ...metros({
    parentId: '840_3',
    ...US,
    metros: [
      ['us_atlanta', 'Atlanta', 'GA', 33.749, -84.388, ['Alpharetta']],
      ['us_dallas', 'Dallas–Fort Worth', 'TX', 32.7767, -96.797, ['Dallas', 'Fort Worth', 'Plano', 'DFW']],
      ['us_houston', 'Houston', 'TX', 29.7604, -95.3698, ['The Woodlands']],
      ['us_miami', 'Miami', 'FL', 25.7617, -80.1918, ['Fort Lauderdale']],
      ['us_philadelphia', 'Philadelphia', 'PA', 39.9526, -75.1652, ['Philly']],
      ['us_phoenix', 'Phoenix', 'AZ', 33.4484, -112.074, ['Scottsdale', 'Tempe']],
      ['us_minneapolis', 'Minneapolis–St. Paul', 'MN', 44.9778, -93.265, ['Minneapolis', 'St. Paul']],
      ['us_raleigh', 'Raleigh–Durham', 'NC', 35.7796, -78.6382, ['Raleigh', 'Durham', 'Research Triangle']],
      ['us_salt_lake_city', 'Salt Lake City', 'UT', 40.7608, -111.891, ['Lehi', 'Provo']],
      ['us_pittsburgh', 'Pittsburgh', 'PA', 40.4406, -79.9959, []],
      ['us_nashville', 'Nashville', 'TN', 36.1627, -86.7816, []],
      ['us_detroit', 'Detroit', 'MI', 42.3314, -83.0458, ['Ann Arbor']],
      ['us_columbus', 'Columbus', 'OH', 39.9612, -82.9988, []],
      ['us_kansas_city', 'Kansas City', 'MO', 39.0997, -94.5786, []],
    ],
  }),
  area({
    id: CANADA_ID,
    name: 'Canada',
    kind: 'country',
    parentId: AMERICAS_ID,
    globalRegion: 'North America',
    country: 'CA',
    currencyCode: 'CAD',
    description: 'All Canadian metros, and the rest of the country.',
  }),
  ...metros({
    parentId: CANADA_ID,
    globalRegion: 'North America',
    country: 'CA',
    currencyCode: 'CAD',
    metros: [
      ['ca_toronto', 'Toronto', 'ON', 43.6532, -79.3832, ['Mississauga', 'Waterloo', 'GTA']],
      ['ca_vancouver', 'Vancouver', 'BC', 49.2827, -123.1207, ['Burnaby']],
      ['ca_montreal', 'Montreal', 'QC', 45.5017, -73.5673, ['Montréal']],
      ['ca_ottawa', 'Ottawa', 'ON', 45.4215, -75.6972, []],
      ['ca_calgary', 'Calgary', 'AB', 51.0447, -114.0719, []],
    ],
  }),
  area({
    id: EUROPE_ID,
    name: 'Europe',
    kind: 'region',
    parentId: null,
    globalRegion: 'Europe',
    country: null,
    currencyCode: 'EUR',
    description: 'Every European country (UN M49).',
  }),
  area({
    id: UNITED_KINGDOM_ID,
    name: 'United Kingdom',
    kind: 'country',
    parentId: EUROPE_ID,
    globalRegion: 'Europe',
    country: 'GB',
    currencyCode: 'GBP',
    description: 'All UK metros, and the rest of the country.',
  }),
  ...metros({
    parentId: UNITED_KINGDOM_ID,
    globalRegion: 'Europe',
    country: 'GB',
    currencyCode: 'GBP',
    metros: [
      ['gb_london', 'London', 'ENG', 51.5074, -0.1278, ['Greater London']],
      ['gb_manchester', 'Manchester', 'ENG', 53.4808, -2.2426, []],
      ['gb_edinburgh', 'Edinburgh', 'SCT', 55.9533, -3.1883, []],
      ['gb_cambridge', 'Cambridge (UK)', 'ENG', 52.2053, 0.1218, []],
    ],
  }),
  area({
    id: GERMANY_ID,
    name: 'Germany',
    kind: 'country',
    parentId: EUROPE_ID,
    globalRegion: 'Europe',
    country: 'DE',
    currencyCode: 'EUR',
    description: 'All German metros, and the rest of the country.',
  }),
  ...metros({
    parentId: GERMANY_ID,
    globalRegion: 'Europe',
    country: 'DE',
    currencyCode: 'EUR',
    metros: [
      ['de_berlin', 'Berlin', 'BE', 52.52, 13.405, []],
      ['de_munich', 'Munich', 'BY', 48.1351, 11.582, ['München']],
      ['de_hamburg', 'Hamburg', 'HH', 53.5511, 9.9937, []],
      ['de_frankfurt', 'Frankfurt', 'HE', 50.1109, 8.6821, ['Frankfurt am Main']],
    ],
  }),
];

/** The countries above, which the catalog divides into metros. */
const COUNTRIES_WITH_METROS = new Set([UNITED_STATES_ID, CANADA_ID, UNITED_KINGDOM_ID, GERMANY_ID]);

/** The regions besides Europe; they mix currencies, so their answers are in USD. */
const OTHER_REGIONS: readonly Location[] = [REGION_IDS.africa, REGION_IDS.americas, REGION_IDS.asia, REGION_IDS.oceania].map((id) =>
  area({
    id,
    name: REGION_NAMES[id],
    kind: 'region',
    parentId: null,
    globalRegion: REGION_NAMES[id],
    country: null,
    currencyCode: 'USD',
    description: `Every country of ${id === REGION_IDS.americas ? 'the Americas' : REGION_NAMES[id]} (UN M49).`,
  }),
);

/** Every other ISO 3166-1 country, at country level only: the catalog has no metro in them. */
const COUNTRIES_WITHOUT_METROS: readonly Location[] = COUNTRIES.filter((c) => !COUNTRIES_WITH_METROS.has(c.numeric))
  .map((c) =>
    area({
      id: c.numeric,
      name: c.name,
      kind: 'country',
      parentId: c.region,
      globalRegion: REGION_NAMES[c.region],
      country: c.alpha2,
      currencyCode: c.currencyCode,
      description: `All of ${c.name}, at country level: the catalog has no metro there.`,
      aliases: [...c.otherNames],
    }),
  )
  .sort((a, b) => a.paybenchLocationName.localeCompare(b.paybenchLocationName, 'en'));

/** Every location: regions, countries, US tiers and metros. Ids never change: saved queries and shares name them. */
export const LOCATIONS: readonly Location[] = [...METRO_AREAS, ...OTHER_REGIONS, ...COUNTRIES_WITHOUT_METROS];

/** Metros: where the demo market's generated records are located. */
export const METROS: readonly Location[] = LOCATIONS.filter((l) => l.kind === 'metro');

/**
 * Places: where a record can be located. Every metro, and every country at country level, which
 * holds its people in none of its catalog metros (all of them, where the catalog has no metro).
 */
export const PLACES: readonly Location[] = LOCATIONS.filter(isPlace);

export function isPlace(location: Location): boolean {
  return location.kind === 'metro' || location.kind === 'country';
}
