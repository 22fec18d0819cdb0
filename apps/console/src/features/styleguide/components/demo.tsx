import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';

/** One demo block of a styleguide page: a titled card, its states side by side. */
export function Demo({
  title,
  description,
  testId,
  className,
  children,
}: {
  title: string;
  description?: string;
  testId?: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className={cn('flex flex-wrap items-start gap-3', className)}>{children}</CardContent>
    </Card>
  );
}

/** A component state with its name under it, so the page reads as a catalogue. */
export function State({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <figure className="flex flex-col items-start gap-1">
      {children}
      <figcaption className="font-mono text-xs text-muted-foreground">{name}</figcaption>
    </figure>
  );
}
