import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode } from 'react';
import {
  DATASETS_MENU,
  DOCUMENTATION_MENU,
  PRICING_MENU,
  type NavGroup,
  type NavLink,
} from '../lib/routes.ts';
import { startLayout } from '../lib/stores/layout.ts';
import { $user } from '../lib/stores/user.ts';
import { Chevron, HeaderMenu } from './parts/HeaderMenu.tsx';
import { useHydrated } from './parts/use-hydrated.ts';

/** SPEC §6: legacy documentation items exist only for users whose legacy flag is set. */
export function visibleDocumentation(legacy: boolean): NavGroup[] {
  return DOCUMENTATION_MENU.map((group) => ({
    title: group.title,
    links: group.links.filter((link) => legacy || link.legacy !== true),
  }));
}

function LinkItem({ link }: { link: NavLink }): ReactNode {
  return (
    <li>
      <a className="menu-link" href={link.href}>
        <span>{link.label}</span>
        {link.legacy === true && <span className="badge">Legacy</span>}
      </a>
    </li>
  );
}

/** The 17 dataset pages, in two columns. */
export function DatasetLinks(): ReactNode {
  return (
    <ul className="menu-list menu-columns" role="list">
      {DATASETS_MENU.map((link) => (
        <LinkItem key={link.href} link={link} />
      ))}
    </ul>
  );
}

function DocumentationGroup({ group }: { group: NavGroup }): ReactNode {
  const headingId = useId();
  return (
    <div className="menu-group">
      <p className="menu-group-title" id={headingId}>
        {group.title}
      </p>
      <ul className="menu-list" role="list" aria-labelledby={headingId}>
        {group.links.map((link) => (
          <LinkItem key={link.href} link={link} />
        ))}
      </ul>
    </div>
  );
}

export function DocumentationLinks({ legacy }: { legacy: boolean }): ReactNode {
  return (
    <div className="menu-groups">
      {visibleDocumentation(legacy).map((group) => (
        <DocumentationGroup key={group.title} group={group} />
      ))}
    </div>
  );
}

export function PricingLinks(): ReactNode {
  return (
    <ul className="menu-list" role="list">
      {PRICING_MENU.map((link) => (
        <LinkItem key={link.href} link={link} />
      ))}
    </ul>
  );
}

/**
 * The desktop header's Datasets, Documentation and Pricing menus. One island because the menus
 * close each other and Documentation depends on the signed-in user.
 */
export function NavMenus(): ReactNode {
  const { legacy } = useStore($user);
  const hydrated = useHydrated();
  useEffect(startLayout, []);
  return (
    <ul className="nav-menus" role="list">
      <li>
        <HeaderMenu
          id="datasets"
          panelClassName="menu-panel-wide"
          label={
            <>
              Datasets
              <Chevron />
            </>
          }
        >
          <DatasetLinks />
        </HeaderMenu>
      </li>
      <li>
        <HeaderMenu
          id="documentation"
          panelClassName="menu-panel-wide"
          label={
            <>
              Documentation
              <Chevron />
            </>
          }
        >
          <DocumentationLinks legacy={hydrated && legacy} />
        </HeaderMenu>
      </li>
      <li>
        <HeaderMenu
          id="pricing"
          label={
            <>
              Pricing
              <Chevron />
            </>
          }
        >
          <PricingLinks />
        </HeaderMenu>
      </li>
    </ul>
  );
}
