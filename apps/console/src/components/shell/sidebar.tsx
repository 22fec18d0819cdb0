import {
  BookOpenIcon,
  Building2Icon,
  ClipboardListIcon,
  Cpu,
  DropletsIcon,
  ExternalLinkIcon,
  GaugeIcon,
  LayersIcon,
  LockIcon,
  type LucideIcon,
  MapIcon,
  PaletteIcon,
  ParkingSquareIcon,
  Share2Icon,
  ShieldIcon,
  SproutIcon,
  UsersIcon,
  WavesIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { MenuEntry, MenuIcon } from '../../lib/menu';
import { cn } from '../../lib/utils';
import { Tooltip, TooltipContent, TooltipTrigger } from '../ui/tooltip';

const ICONS: Record<MenuIcon, LucideIcon> = {
  dashboard: GaugeIcon,
  map: MapIcon,
  devices: Cpu,
  clients: Building2Icon,
  groups: LayersIcon,
  users: UsersIcon,
  parking: ParkingSquareIcon,
  fields: SproutIcon,
  tasks: ClipboardListIcon,
  water: WavesIcon,
  'water-members': UsersIcon,
  'water-devices': DropletsIcon,
  'water-shared': Share2Icon,
  'water-dashboard': WavesIcon,
  styleguide: PaletteIcon,
  docs: BookOpenIcon,
  'admin-tool': ShieldIcon,
  link: ExternalLinkIcon,
};

const itemClass =
  'flex items-center gap-3 rounded-md px-3 py-2 text-sm text-sidebar-foreground/85 transition-colors hover:bg-sidebar-accent hover:text-sidebar-foreground';

function EntryLabel({ entry }: { entry: MenuEntry }) {
  const { t } = useTranslation();
  const Icon = ICONS[entry.icon];
  return (
    <>
      <Icon className="size-4 shrink-0" />
      <span className="flex-1 truncate">
        {entry.labelParams ? t(entry.labelKey, entry.labelParams) : t(entry.labelKey)}
      </span>
      {entry.badge !== undefined && (
        <span
          className="rounded-full bg-amber-500 px-1.5 text-xs font-semibold text-white"
          data-testid={`menu-${entry.id}-badge`}
        >
          {entry.badge}
        </span>
      )}
    </>
  );
}

/** A module the company has not licensed: a lock and the hint of spec section 6, no link (issue #27). */
function LockedEntry({ entry }: { entry: MenuEntry }) {
  const { t } = useTranslation();
  return (
    <li>
      <Tooltip>
        <TooltipTrigger asChild>
          <button
            type="button"
            className={cn(itemClass, 'w-full cursor-not-allowed opacity-60 hover:bg-transparent')}
            aria-disabled="true"
            data-testid={`menu-${entry.id}`}
            data-locked="true"
          >
            <EntryLabel entry={entry} />
            <LockIcon className="ml-auto size-3.5" aria-label={t('menu.locked')} />
          </button>
        </TooltipTrigger>
        <TooltipContent side="right" data-testid={`menu-${entry.id}-locked-hint`}>
          {t('menu.locked')}
        </TooltipContent>
      </Tooltip>
    </li>
  );
}

function Entry({ entry, onNavigate }: { entry: MenuEntry; onNavigate?: (() => void) | undefined }) {
  if (entry.children) {
    return (
      <li data-testid={`menu-${entry.id}`}>
        <div className={cn(itemClass, 'cursor-default font-medium hover:bg-transparent')}>
          <EntryLabel entry={entry} />
        </div>
        <ul className="ml-4 border-l border-white/10 pl-2">
          {entry.children.map((child) => (
            <Entry key={child.id} entry={child} onNavigate={onNavigate} />
          ))}
        </ul>
      </li>
    );
  }
  if (entry.locked) return <LockedEntry entry={entry} />;
  if (entry.href) {
    return (
      <li>
        <a
          href={entry.href}
          target="_blank"
          rel="noreferrer"
          className={itemClass}
          data-testid={`menu-${entry.id}`}
        >
          <EntryLabel entry={entry} />
        </a>
      </li>
    );
  }
  return (
    <li>
      <NavLink
        to={entry.to ?? '/'}
        onClick={onNavigate}
        className={({ isActive }) =>
          cn(itemClass, isActive && 'bg-sidebar-accent font-medium text-sidebar-foreground')
        }
        data-testid={`menu-${entry.id}`}
      >
        <EntryLabel entry={entry} />
      </NavLink>
    </li>
  );
}

export interface SidebarProps {
  entries: MenuEntry[];
  footer: MenuEntry[];
  onNavigate?: () => void;
  className?: string;
  /** The acting company's logo (a data URL), shown in place of the dot (issue #27). */
  logo?: string | null;
}

/** Side menu: entries per role, module and NWA relation, footer links at the bottom. */
export function Sidebar({ entries, footer, onNavigate, className, logo }: SidebarProps) {
  const { t } = useTranslation();
  return (
    <aside
      className={cn('flex h-full w-64 flex-col bg-sidebar text-sidebar-foreground', className)}
      data-testid="sidebar"
    >
      <div className="flex h-14 items-center gap-2 px-4 text-lg font-semibold">
        {logo ? (
          <img src={logo} alt="" className="size-8 rounded object-contain" data-testid="company-logo" />
        ) : (
          <span className="inline-block size-6 rounded-full bg-primary" aria-hidden />
        )}
        IoT Console
      </div>
      <nav className="flex-1 overflow-y-auto px-2 py-2" aria-label={t('menu.label')}>
        <ul className="flex flex-col gap-0.5" data-testid="menu">
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} onNavigate={onNavigate} />
          ))}
        </ul>
      </nav>
      <ul
        className="flex flex-col gap-0.5 border-t border-white/10 px-2 py-2 text-xs"
        data-testid="menu-footer"
      >
        {footer.map((entry) => (
          <Entry key={entry.id} entry={entry} onNavigate={onNavigate} />
        ))}
      </ul>
    </aside>
  );
}
