/**
 * The careers pages' vocabulary (teams, workplaces, kinds of employment), shared by the careers
 * collection's schema and the pages, so every role is described in the same words.
 */

export const CAREERS_TEAMS = ['Engineering', 'Data', 'Product', 'Customer success', 'Marketing'] as const;
export type CareersTeam = (typeof CAREERS_TEAMS)[number];

/** Where the work is done: anywhere in the regions named, partly at the office, or at the office. */
export const WORKPLACES = ['Remote', 'Hybrid', 'On-site'] as const;
export type Workplace = (typeof WORKPLACES)[number];

export const EMPLOYMENT_TYPES = ['Full-time', 'Part-time', 'Contract'] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

/** The careers index and a role's page. */
export const CAREERS_PATH = '/careers';
export function rolePath(id: string): string {
  return `${CAREERS_PATH}/${id}`;
}

/** Where the hiring team reads mail that is not an application (questions about a role, agencies). */
export const CAREERS_EMAIL = 'careers@tickerlake.com';

/** What a role's page and the list show about it, as the careers collection describes it. */
export interface RoleFactsView {
  team: CareersTeam;
  location: string;
  workplace: Workplace;
  employment: EmploymentType;
  salary: string;
  posted: Date;
}

/** A posting date as readers everywhere see it ("November 9, 2026"), fixed when the page is built. */
export function postedDate(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

const EMPLOYMENT_SCHEMA: Readonly<Record<EmploymentType, string>> = {
  'Full-time': 'FULL_TIME',
  'Part-time': 'PART_TIME',
  Contract: 'CONTRACTOR',
};

/**
 * A role as schema.org JobPosting JSON-LD, so job search engines list it with its pay, place and
 * date; `<` is escaped so the text can never close the script element it is written into.
 */
export function jobPostingJsonLd(role: {
  title: string;
  summary: string;
  url: string;
  organization: string;
  organizationUrl: string;
  facts: RoleFactsView;
}): string {
  const { facts } = role;
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: role.title,
    description: role.summary,
    url: role.url,
    datePosted: facts.posted.toISOString().slice(0, 10),
    employmentType: EMPLOYMENT_SCHEMA[facts.employment],
    hiringOrganization: { '@type': 'Organization', name: role.organization, sameAs: role.organizationUrl },
  };
  if (facts.workplace === 'Remote') {
    data.jobLocationType = 'TELECOMMUTE';
    data.applicantLocationRequirements = { '@type': 'AdministrativeArea', name: facts.location };
  } else {
    data.jobLocation = {
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: facts.location },
    };
  }
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}
