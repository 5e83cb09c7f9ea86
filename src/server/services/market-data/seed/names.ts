import type { Random } from './random.ts';
import firstNamesFemale from './data/first-names-female.json' with { type: 'json' };
import firstNamesMale from './data/first-names-male.json' with { type: 'json' };
import lastNames from './data/last-names.json' with { type: 'json' };
import namePrefixes from './data/name-prefixes.json' with { type: 'json' };
import researchFirms from './data/research-firms.json' with { type: 'json' };
import streetNames from './data/street-names.json' with { type: 'json' };
import usCities from './data/us-cities.json' with { type: 'json' };

/**
 * Word lists for generated company, fund and person names. The combinations are invented; only the familiar
 * symbols carry real company names.
 */

export const NAME_PREFIXES: readonly string[] = namePrefixes;

export const FIRST_NAMES_MALE: readonly string[] = firstNamesMale;

export const FIRST_NAMES_FEMALE: readonly string[] = firstNamesFemale;

export const LAST_NAMES: readonly string[] = lastNames;

export const MIDDLE_INITIALS = 'ABCDEFGHJKLMNPRSTW';

export interface Person {
  name: string;
  firstName: string;
  lastName: string;
  gender: 'male' | 'female';
}

/** An invented person's name ("Laura K. Whitfield"). */
export function personName(random: Random): Person {
  const gender = random.chance(0.5) ? 'male' : 'female';
  const firstName = random.pick(gender === 'male' ? FIRST_NAMES_MALE : FIRST_NAMES_FEMALE);
  const lastName = random.pick(LAST_NAMES);
  const middle = random.chance(0.6)
    ? ` ${MIDDLE_INITIALS.charAt(random.int(0, MIDDLE_INITIALS.length - 1))}.`
    : '';
  return { name: `${firstName}${middle} ${lastName}`, firstName, lastName, gender };
}

export const US_CITIES = usCities as unknown as readonly (readonly [
  city: string,
  state: string,
  zipPrefix: string,
])[];

export const STREET_NAMES: readonly string[] = streetNames;

/** Brokers and research houses for analyst grades; invented names. */
export const RESEARCH_FIRMS: readonly string[] = researchFirms;
