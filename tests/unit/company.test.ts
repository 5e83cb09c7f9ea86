import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMMISSION_MONTHS,
  COMMISSION_PERCENT,
  normalizeReferralCode,
  REFERRAL_COOKIE_DAYS,
  referralCookie,
  referralLink,
} from '../../src/lib/affiliates.ts';
import { jobPostingJsonLd } from '../../src/lib/careers.ts';
import { applicationLink, jobApplicationSchema } from '../../src/lib/job-application-schema.ts';
import { mailboxOf } from '../../src/server/services/affiliates.ts';
import { frontMatterTitle, openRoles } from '../../src/server/services/open-roles.ts';

describe('affiliate codes and links', () => {
  it('are the programme’s advertised terms', () => {
    expect([COMMISSION_PERCENT, COMMISSION_MONTHS, REFERRAL_COOKIE_DAYS]).toEqual([20, 12, 60]);
  });

  it('take a code in any case and refuse anything without a code’s shape', () => {
    expect(normalizeReferralCode(' k7q2m9xd ')).toBe('K7Q2M9XD');
    for (const bad of ['', 'K7Q2M9X', 'K7Q2M9XDD', 'K0Q2M9XD', 'K7Q2M9X<', null, undefined]) {
      expect(normalizeReferralCode(bad), String(bad)).toBeNull();
    }
  });

  it('link to the home page with the code and remember it for 60 days', () => {
    expect(referralLink('https://tickerlake.com/', 'K7Q2M9XD')).toBe('https://tickerlake.com/?ref=K7Q2M9XD');
    expect(referralCookie('K7Q2M9XD', true)).toBe(
      'tl_ref=K7Q2M9XD; Max-Age=5184000; Path=/; SameSite=Lax; Secure',
    );
    expect(referralCookie('K7Q2M9XD', false)).not.toContain('Secure');
  });

  it('treat the addresses of one mailbox as one person', () => {
    expect(mailboxOf('Ada+Second@Example.com')).toBe('ada@example.com');
    expect(mailboxOf('ada@example.com')).toBe(mailboxOf('ADA@example.com'));
    expect(mailboxOf('ada@example.com')).not.toBe(mailboxOf('ada@example.org'));
  });
});

describe('job applications', () => {
  it('take web addresses with or without a scheme, and nothing else', () => {
    expect(applicationLink('github.com/ada')).toBe('https://github.com/ada');
    expect(applicationLink('http://ada.dev')).toBe('http://ada.dev/');
    for (const bad of ['javascript:alert(1)', 'localhost:3000', 'ftp://ada.dev', 'mailto:ada@ada.dev']) {
      expect(applicationLink(bad), bad).toBeUndefined();
    }
  });

  it('read the links the form sends as typed (lines, spaces or commas) and as a list alike', () => {
    const base = {
      name: 'Ada',
      email: 'ada@example.com',
      role: 'developer-advocate',
      coverNote: 'x'.repeat(60),
    };
    const typed = jobApplicationSchema.parse({ ...base, links: 'github.com/ada,\n ada.dev  ' });
    const listed = jobApplicationSchema.parse({ ...base, links: typed.links });
    expect(typed.links).toEqual(['https://github.com/ada', 'https://ada.dev/']);
    expect(listed.links).toEqual(typed.links);
  });
});

describe('the careers collection', () => {
  it('reads a title plain or quoted from front matter', () => {
    expect(frontMatterTitle('---\ntitle: Data Engineer\nteam: Data\n---\nText')).toBe('Data Engineer');
    expect(frontMatterTitle("---\ntitle: 'Engineer, it''s data'\n---\n")).toBe("Engineer, it's data");
    expect(frontMatterTitle('no front matter')).toBeUndefined();
  });

  it('has four or more open roles, each with the sections its page promises', () => {
    const folder = path.join(process.cwd(), 'src/content/careers');
    const files = readdirSync(folder).filter((name) => name.endsWith('.md'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    expect(
      openRoles()
        .map((role) => `${role.id}.md`)
        .toSorted(),
    ).toEqual(files.toSorted());
    for (const name of files) {
      const text = readFileSync(path.join(folder, name), 'utf8');
      for (const heading of ['## What you will do', '## What we are looking for', '## How we hire']) {
        expect(text, `${name}: ${heading}`).toContain(`\n${heading}\n`);
      }
    }
  });

  it('describes a role for job search engines without letting its text close the script', () => {
    const data = jobPostingJsonLd({
      title: 'Engineer </script>',
      summary: 'Builds things.',
      url: 'https://tickerlake.com/careers/engineer',
      organization: 'Tickerlake',
      organizationUrl: 'https://tickerlake.com/',
      facts: {
        team: 'Engineering',
        location: 'Remote (Europe)',
        workplace: 'Remote',
        employment: 'Full-time',
        salary: '£1',
        posted: new Date('2026-11-09T00:00:00Z'),
      },
    });
    expect(data).not.toContain('</script>');
    expect(JSON.parse(data)).toMatchObject({
      '@type': 'JobPosting',
      datePosted: '2026-11-09',
      employmentType: 'FULL_TIME',
      jobLocationType: 'TELECOMMUTE',
    });
  });
});
