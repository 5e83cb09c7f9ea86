/**
 * The script that paints the saved theme before the first render, and again after each client-side
 * navigation (which replaces the attributes of <html>). It must run inline and at once (a module
 * script runs after the first paint, which would flash the wrong theme), so the pages'
 * Content-Security-Policy allows exactly this text by its hash, computed from this constant when
 * the site is built (src/server/app/inline-hashes.ts): BaseLayout renders it as it is, and any
 * change here changes the hash with it. Keep in step with src/lib/stores/theme.ts.
 */
export const THEME_SCRIPT = `(() => {
  const apply = () => {
    let dark;
    try {
      const mode = localStorage.getItem('themeMode');
      const flag = localStorage.getItem('displayDarkMode');
      if (mode === 'dark' || mode === 'light') dark = mode === 'dark';
      else if (mode !== 'system' && (flag === 'true' || flag === 'false')) dark = flag === 'true';
    } catch {
      // Storage may be unavailable; fall back to the system preference.
    }
    if (dark === undefined) dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  };
  apply();
  document.addEventListener('astro:after-swap', apply);
})();`;
