/**
 * The sign-up questionnaire of SPEC §3, shared by the questionnaire the browser shows and the
 * accounts API that checks the answers: the question texts are the answer keys, so both sides must
 * read them from one place and they must never change.
 */
export const SIGNUP_QUESTIONS = [
  {
    question: 'Primary purpose for using the API',
    options: [
      'Investment Analysis',
      'Market Research',
      'Academic Research',
      'Product Development',
      'Competitor Analysis',
      'Other',
    ],
  },
  {
    question: 'Dataset most interested in',
    options: [
      'Live Stock Data',
      'Historical Market Data',
      'Financial Statements',
      'Alternative Data',
      'Corporate Events',
      'ETF / Mutual Funds',
      'SEC Filings',
      'Economic Indicators',
      'Other',
    ],
  },
  {
    question: 'Most important aspect in a provider',
    options: ['Affordability', 'Data Accuracy', 'Data Coverage (Breadth / Depth)'],
  },
  {
    question: 'Role in organization',
    options: [
      'Developer',
      'Data Scientist',
      'Manager',
      'Executive',
      'Student',
      'Investor / Analyst',
      'Other',
    ],
  },
  {
    question: 'How did you hear about us',
    options: ['Search Engine', 'Blog / Quora / Reddit', 'Social Media', 'Referral', 'Conference', 'Other'],
  },
] as const satisfies readonly { question: string; options: readonly [string, ...string[]] }[];

/** One question of the questionnaire with its options. */
export type SignupQuestion = (typeof SIGNUP_QUESTIONS)[number];

/** The answers, keyed by question text, one chosen option each. */
export type SignupAnswers = Record<string, string>;
