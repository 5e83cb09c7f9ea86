interface ImportMetaEnv {
  /** The public fallback credential sent while signed out. */
  readonly PUBLIC_FALLBACK_TOKEN?: string;
  /** Base URL of the portal calls (SPEC §7); empty means this site under /api/portal. */
  readonly PUBLIC_PORTAL_URL?: string;
  /** Base URL of the app-server calls (SPEC §7); empty means this site under /api/app. */
  readonly PUBLIC_APP_SERVER_URL?: string;
  /** Base URL of the market data API. */
  readonly PUBLIC_DATA_API_URL?: string;
  readonly PUBLIC_FIREBASE_API_KEY?: string;
  readonly PUBLIC_FIREBASE_AUTH_DOMAIN?: string;
  readonly PUBLIC_FIREBASE_PROJECT_ID?: string;
  readonly PUBLIC_FIREBASE_AUTH_EMULATOR_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

declare namespace astroHTML.JSX {
  interface IntrinsicAttributes {
    /** Hydrates the island once the page raises this demand (src/lib/shell/demand.ts). */
    'client:demand'?: string;
  }
}
