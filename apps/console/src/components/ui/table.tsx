import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/utils';

export function Table({ className, ...props }: React.ComponentProps<'table'>) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return <tr className={cn('border-b transition-colors hover:bg-muted/50', className)} {...props} />;
}

/**
 * A column header. One without a visible title (the row actions) is still named, for screen readers:
 * an empty header cell tells them nothing.
 */
export function TableHead({ className, children, ...props }: React.ComponentProps<'th'>) {
  const { t } = useTranslation();
  const untitled = children === undefined || children === null || children === '' || children === false;
  return (
    <th
      className={cn(
        'h-10 px-2 text-left align-middle font-medium text-muted-foreground whitespace-nowrap',
        className,
      )}
      {...props}
    >
      {untitled ? <span className="sr-only">{t('common.actions')}</span> : children}
    </th>
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return <td className={cn('p-2 align-middle whitespace-nowrap', className)} {...props} />;
}

/**
 * Renders a TanStack header or cell definition by calling it, not mounting it as a component:
 * column definitions are rebuilt per render (they close over the current handlers), and mounting a
 * new function identity would remount every cell on each render. Cell renderers therefore use no hooks.
 */
export function renderTableContent<P>(
  content: ((props: P) => unknown) | string | undefined,
  props: P,
): React.ReactNode {
  if (content === undefined) return null;
  return (typeof content === 'function' ? content(props) : content) as React.ReactNode;
}
