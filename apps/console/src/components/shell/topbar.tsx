import { LayoutPanelLeftIcon, LogOutIcon, MenuIcon, SettingsIcon, UserIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../types/api';
import { Button } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';

export type LayoutMode = 'static' | 'overlay';

export interface TopbarProps {
  user: CurrentUser;
  mobile: boolean;
  layoutMode: LayoutMode;
  onToggleMenu: () => void;
  onToggleLayoutMode: () => void;
  onSettings: () => void;
  onLogout: () => void;
  /** entries left of the user menu, composed by the shell (e.g. the messages bell) */
  actions?: React.ReactNode;
}

/** Top bar; below 991 px the compact mobile variant (hamburger, brand, icon-only user menu). */
export function Topbar({
  user,
  mobile,
  layoutMode,
  onToggleMenu,
  onToggleLayoutMode,
  onSettings,
  onLogout,
  actions,
}: TopbarProps) {
  const { t } = useTranslation();
  return (
    <header
      className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-3"
      data-testid="topbar"
      data-variant={mobile ? 'mobile' : 'desktop'}
    >
      <Button
        variant="ghost"
        size="icon"
        onClick={onToggleMenu}
        aria-label={t('shell.toggle-menu')}
        data-testid="menu-toggle"
      >
        <MenuIcon />
      </Button>
      {mobile && <span className="font-semibold">IoT Console</span>}
      <div className="ml-auto flex items-center gap-2">
        {!mobile && (
          <div className="flex flex-col items-end leading-tight" data-testid="topbar-identity">
            <span className="text-sm font-medium">{user.name}</span>
            <span className="text-xs text-muted-foreground">{user.company.name}</span>
          </div>
        )}
        {actions}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="icon" aria-label={t('shell.user-menu')} data-testid="user-menu">
              <UserIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-56">
            <DropdownMenuLabel>
              <div className="truncate">{user.name}</div>
              <div className="truncate text-xs font-normal text-muted-foreground">{user.email}</div>
            </DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onSettings} data-testid="user-menu-settings">
              <SettingsIcon />
              {t('shell.settings')}
            </DropdownMenuItem>
            {!mobile && (
              <DropdownMenuItem onSelect={onToggleLayoutMode} data-testid="user-menu-layout">
                <LayoutPanelLeftIcon />
                {layoutMode === 'static' ? t('shell.layout-overlay') : t('shell.layout-static')}
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onLogout} data-testid="user-menu-logout">
              <LogOutIcon />
              {t('shell.logout')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </header>
  );
}
