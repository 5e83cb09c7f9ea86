import { useEffect, useRef, type ReactNode } from 'react';
import {
  PREMIUM_PAGES,
  SYMBOL_TABS,
  symbolPath,
  tabFor,
  type SymbolKind,
  type SymbolPage,
} from '../lib/symbol-routes.ts';
import './SymbolTabs.css';

interface Props {
  symbol: string;
  kind: SymbolKind;
  page: SymbolPage;
}

/**
 * The tab bar of a symbol page. Tabs are links: the client router swaps only the panel below
 * (the header and this bar persist across the view transition), and each tab stays a plain,
 * crawlable page without script.
 */
export function SymbolTabs({ symbol, kind, page }: Props): ReactNode {
  const current = tabFor(page, kind);
  const bar = useRef<HTMLElement>(null);
  useEffect(() => {
    revealCurrentTab(bar.current);
  }, [current]);
  return (
    <nav className="symbol-tabs" aria-label={`${symbol} sections`} ref={bar}>
      <ul role="list">
        {SYMBOL_TABS[kind].map((tab) => (
          <li key={tab.page}>
            <a
              href={symbolPath(tab.page, symbol)}
              aria-current={tab === current ? 'page' : undefined}
              data-astro-prefetch="hover"
              data-premium-tier={PREMIUM_PAGES[tab.page]}
            >
              {tab.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * On a phone the bar scrolls sideways; the current tab (DCF, say, at the far end) is brought into
 * view, centred, so the visitor sees where they are. Only the bar scrolls, never the page.
 */
function revealCurrentTab(bar: HTMLElement | null): void {
  const link = bar?.querySelector('[aria-current="page"]');
  if (!bar || !link) return;
  const barBox = bar.getBoundingClientRect();
  const box = link.getBoundingClientRect();
  if (box.left >= barBox.left && box.right <= barBox.right) return;
  bar.scrollLeft += box.left - barBox.left - (barBox.width - box.width) / 2;
}
