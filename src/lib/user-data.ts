/**
 * The user state of SPEC §3 as one shared type: the accounts API answers it and the browser's user
 * store keeps it, so both sides always agree on its fields and defaults.
 */

export type UserRole = 'user' | 'analyst' | 'admin' | (string & {});

/** The signed-in user's data as the accounts API returns it (SPEC §3, user state). */
export interface UserData {
  userid: string;
  username: string;
  firstname: string;
  lastname: string;
  email: string;
  userRole: UserRole;
  createdAt: string;
  /**
   * Whether the identity provider has confirmed the email address. API keys work only once it
   * has, so the dashboard says whether the key is active and offers to resend the link.
   */
  emailVerified: boolean;
  isPremium: boolean;
  planCode: string;
  /**
   * The plan's data coverage (0 sample … 4 commercial, as the data API counts it): the site opens
   * the premium dialog instead of sections the plan does not include.
   */
  dataTier: number;
  apiKey: string;
  legacy: boolean;
  facebookLinked: boolean;
  referralCode: string;
  linkedAccounts: string[];
  followingIDs: string[];
  followersIDs: string[];
  positionSpaces: unknown[];
  watchlistSpaces: unknown[];
  marketIndicies: unknown[];
  intercomHash: string;
  tutorials: Record<string, boolean>;
  tutorialComplete: boolean;
  portfolioTutorials: {
    editPortfolioCompletes: boolean;
    tabBtnCompletes: boolean;
    settingsCompletes: boolean;
  };
}

/** Everything of the user state but the API key: what may be shown to someone other than the owner. */
export type ProfileData = Omit<UserData, 'apiKey'>;

/** SPEC §3 defaults (the portfolio tutorials default to done, so new accounts are not nagged). */
export const EMPTY_PROFILE_DATA: ProfileData = {
  userid: '',
  username: '',
  firstname: '',
  lastname: '',
  email: '',
  userRole: 'user',
  createdAt: '',
  emailVerified: false,
  isPremium: false,
  planCode: 'free',
  dataTier: 0,
  legacy: false,
  facebookLinked: false,
  referralCode: '',
  linkedAccounts: [],
  followingIDs: [],
  followersIDs: [],
  positionSpaces: [],
  watchlistSpaces: [],
  marketIndicies: [],
  intercomHash: '',
  tutorials: {},
  tutorialComplete: false,
  portfolioTutorials: { editPortfolioCompletes: true, tabBtnCompletes: true, settingsCompletes: true },
};

export const EMPTY_USER_DATA: UserData = { ...EMPTY_PROFILE_DATA, apiKey: '' };
