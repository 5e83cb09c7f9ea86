import { useStore } from '@nanostores/react';
import { useEffect, type ReactNode } from 'react';
import { $darkMode, $themeMode, setThemeMode, startTheme, toggleDarkMode } from '../lib/stores/theme.ts';
import { useHydrated } from './parts/use-hydrated.ts';

/**
 * The dark mode switch plus a "follow the system" toggle. The icons follow `<html data-theme>`
 * through CSS, so the right one shows even before this island hydrates.
 */
export function ThemeSwitch(): ReactNode {
  const mode = useStore($themeMode);
  const dark = useStore($darkMode);
  const hydrated = useHydrated();
  useEffect(startTheme, []);
  // Until hydration is over, render what the server did: the stored theme is not known there.
  const system = !hydrated || mode === 'system';
  const checked = hydrated && dark;

  return (
    <div className="theme-switch" role="group" aria-label="Theme">
      <button
        type="button"
        role="switch"
        className="theme-toggle"
        aria-checked={checked}
        aria-label="Dark mode"
        title="Dark mode"
        onClick={toggleDarkMode}
      >
        <span className="theme-toggle-thumb" aria-hidden="true">
          <svg className="icon-sun" width="14" height="14" viewBox="0 0 24 24" focusable="false">
            <circle cx="12" cy="12" r="4.5" fill="currentColor" />
            <path
              d="M12 1.5v3M12 19.5v3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M1.5 12h3M19.5 12h3M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
          <svg className="icon-moon" width="14" height="14" viewBox="0 0 24 24" focusable="false">
            <path d="M20.5 14.5A8.5 8.5 0 0 1 9.5 3.5a8.5 8.5 0 1 0 11 11Z" fill="currentColor" />
          </svg>
        </span>
      </button>
      <button
        type="button"
        className="icon-button theme-system"
        aria-pressed={system}
        aria-label="Use system theme"
        title={system ? 'Following the system theme' : 'Use system theme'}
        onClick={() => {
          setThemeMode(system ? (dark ? 'dark' : 'light') : 'system');
        }}
      >
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <rect
            x="2.5"
            y="4"
            width="19"
            height="13"
            rx="2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
          />
          <path d="M8.5 20.5h7M12 17v3.5" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}
