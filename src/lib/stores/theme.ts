import { atom, computed } from 'nanostores';

export type ThemeMode = 'light' | 'dark' | 'system';

/** The visitor's choice, kept between visits; 'system' follows the operating system. */
export const THEME_MODE_KEY = 'themeMode';
/** SPEC §4: the resolved dark flag is saved under this key ('true'/'false') so it applies everywhere. */
export const DARK_MODE_KEY = 'displayDarkMode';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export const $themeMode = atom<ThemeMode>('system');

/** The operating system's preference, tracked live so 'system' mode follows it without a reload. */
export const $systemDark = atom<boolean>(false);

/** Whether the page is drawn dark; everything theme-dependent reads this rather than the mode. */
export const $darkMode = computed([$themeMode, $systemDark], (mode, systemDark) =>
  mode === 'system' ? systemDark : mode === 'dark',
);

function isThemeMode(value: unknown): value is ThemeMode {
  return value === 'light' || value === 'dark' || value === 'system';
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private modes may refuse storage; the theme then lasts for this page only.
  }
}

/**
 * The stored mode; a visitor who only has the older dark flag keeps that explicit choice. Must
 * agree with the inline script in the layout's head (src/lib/first-paint-script.ts), which paints the
 * theme before this runs.
 */
function storedMode(): ThemeMode {
  const mode = readStorage(THEME_MODE_KEY);
  if (isThemeMode(mode)) return mode;
  const dark = readStorage(DARK_MODE_KEY);
  if (dark === 'true') return 'dark';
  if (dark === 'false') return 'light';
  return 'system';
}

let started = false;

/**
 * Loads the saved mode, follows the system preference live and from then on persists every change
 * and applies it to `<html data-theme>`. Browser only; safe to call repeatedly.
 */
export function startTheme(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const media = window.matchMedia(DARK_QUERY);
  $systemDark.set(media.matches);
  $themeMode.set(storedMode());
  media.addEventListener('change', (event) => {
    $systemDark.set(event.matches);
  });
  $themeMode.listen((mode) => {
    writeStorage(THEME_MODE_KEY, mode);
  });
  $darkMode.subscribe((dark) => {
    writeStorage(DARK_MODE_KEY, String(dark));
    document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
  });
  // Another tab changed the theme: follow it so all tabs look alike.
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_MODE_KEY && isThemeMode(event.newValue)) $themeMode.set(event.newValue);
  });
}

export function setThemeMode(mode: ThemeMode): void {
  startTheme();
  $themeMode.set(mode);
}

/** The switch picks the opposite of what is shown now, turning 'system' into an explicit choice. */
export function toggleDarkMode(): void {
  startTheme();
  setThemeMode($darkMode.get() ? 'light' : 'dark');
}
