import { CODE_LANGUAGE_STORAGE_KEY, CODE_LANGUAGES, DEFAULT_CODE_LANGUAGE } from './docs/code-languages.ts';

/**
 * The script that paints, before the first render, what only the browser knows: the saved theme
 * (`<html data-theme>`), whether a session is stored (`<html data-auth="in|out">`, which the
 * header's CSS reads to show Sign In / Sign Up or Dashboard and the avatar, with nothing to swap
 * later), whether an administrator is viewing another account (`<html data-link-user="on|off">`,
 * which shows the Link User banner above the header) and the reader's language for code samples
 * (`<html data-code-lang>`, which shows that language's tab on every documentation page, so a
 * sample never changes height after the paint). It runs again after each client-side navigation,
 * which replaces the attributes of <html>.
 * It must run inline and at once (a module script runs after the first paint, which would flash the
 * wrong theme and header), so the pages' Content-Security-Policy allows exactly this text by its
 * hash, computed from this constant when the site is built (src/server/app/inline-hashes.ts):
 * BaseLayout renders it as it is, and any change here changes the hash with it. Keep in step with
 * src/lib/stores/theme.ts (the theme), src/lib/stores/session.ts (the stored session) and
 * src/lib/stores/link-user.ts (the switch, under `linkUser`), which take over once the page's
 * scripts run, and src/lib/docs/code-tabs.ts (the code language).
 */
export const FIRST_PAINT_SCRIPT = `(() => {
  const apply = () => {
    const root = document.documentElement;
    let dark;
    let signedIn = false;
    let linked = false;
    let codeLang = '${DEFAULT_CODE_LANGUAGE}';
    try {
      const mode = localStorage.getItem('themeMode');
      const flag = localStorage.getItem('displayDarkMode');
      if (mode === 'dark' || mode === 'light') dark = mode === 'dark';
      else if (mode !== 'system' && (flag === 'true' || flag === 'false')) dark = flag === 'true';
      const session = JSON.parse(localStorage.getItem('session') || 'null');
      signedIn = Boolean(session && session.accessToken && session.user && session.user.apiKey);
      const link = JSON.parse(localStorage.getItem('linkUser') || 'null');
      linked = Boolean(session && link && typeof link.username === 'string');
      const lang = localStorage.getItem('${CODE_LANGUAGE_STORAGE_KEY}');
      if (${JSON.stringify(CODE_LANGUAGES.map((language) => language.id))}.includes(lang)) codeLang = lang;
    } catch {
      // Storage may be unavailable or hold something else: the system theme, signed out.
    }
    if (dark === undefined) dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    root.dataset.theme = dark ? 'dark' : 'light';
    root.dataset.auth = signedIn ? 'in' : 'out';
    root.dataset.linkUser = linked ? 'on' : 'off';
    root.dataset.codeLang = codeLang;
  };
  apply();
  document.addEventListener('astro:after-swap', apply);
})();`;
