import { PlusIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { PageHeader } from './page-header';

interface ListToolbarProps {
  title: string;
  /** a search field filtering the list (its text lives in the URL, see use-url-list-table.ts) */
  search?: { value: string; onChange: (value: string) => void; testId: string };
  /** the add button; left out for users who may not add */
  add?: { label: string; onClick: () => void; testId: string } | false | null;
  /** further actions after these (a dialog's own trigger, an import) */
  children?: ReactNode;
}

/**
 * The header of a list page (groups, users, clients, car parks, fields, ...): its title, then the search
 * field and the add button every list page shows in the same places.
 */
export function ListToolbar({ title, search, add, children }: ListToolbarProps) {
  const { t } = useTranslation();
  const actions =
    search || add || children ? (
      <>
        {search && (
          <Input
            type="search"
            placeholder={t('common.search')}
            aria-label={t('common.search')}
            value={search.value}
            onChange={(e) => search.onChange(e.target.value)}
            className="w-56"
            data-testid={search.testId}
          />
        )}
        {add && (
          <Button onClick={add.onClick} data-testid={add.testId}>
            <PlusIcon />
            {add.label}
          </Button>
        )}
        {children}
      </>
    ) : null;
  return <PageHeader title={title} actions={actions} />;
}
