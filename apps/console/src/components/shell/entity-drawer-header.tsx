import { WifiOffIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { type DrawerSubject, drawerSubtext } from '../../lib/drawer-subtext';
import { Badge } from '../ui/badge';
import { SheetDescription, SheetHeader, SheetTitle } from '../ui/sheet';

export interface EntityHeaderInfo extends DrawerSubject {
  name: string;
  icon?: React.ReactNode;
  /** false shows the offline marker */
  is_active?: boolean | null;
}

/** Drawer header of spec section 2: name, icon, offline marker when is_active is false, subtext. */
export function EntityDrawerHeader({ info }: { info: EntityHeaderInfo }) {
  const { t } = useTranslation();
  const subtext = drawerSubtext(info);
  return (
    <SheetHeader data-testid="drawer-header">
      <div className="flex items-center gap-2">
        {info.icon && (
          <span className="text-primary [&_svg]:size-5" data-testid="drawer-icon">
            {info.icon}
          </span>
        )}
        <SheetTitle data-testid="drawer-title">{info.name}</SheetTitle>
        {info.is_active === false && (
          <Badge variant="destructive" className="gap-1" data-testid="drawer-offline">
            <WifiOffIcon className="size-3" />
            {t('drawer.offline')}
          </Badge>
        )}
      </div>
      <SheetDescription data-testid="drawer-subtext">{subtext || '\u00a0'}</SheetDescription>
    </SheetHeader>
  );
}
