import type { ValidationError } from '@iot/domain';
import { CircleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import type { FormSummary } from '../../lib/form-state';
import { cn } from '../../lib/utils';
import type { TranslationKey } from '../../types/translation-key';
import { Badge } from './badge';
import { Label } from './label';

/** The translated message of a validation error: `error.<first failing validator>`, else error.unknown. */
export function useErrorText() {
  const { t, i18n } = useTranslation();
  // Validation keys come from the domain at run time (error.<rule>), so they are checked with exists().
  return (error: ValidationError) =>
    i18n.exists(error.key)
      ? t(error.key as TranslationKey, error.params ?? {})
      : t('error.unknown', error.params ?? {});
}

export interface FormFieldProps {
  name: string;
  label: React.ReactNode;
  summary: FormSummary;
  required?: boolean;
  /** data-testid prefix: the error gets "<testId>-error" */
  testId?: string;
  className?: string;
  children: React.ReactNode;
}

/**
 * Label, then the error above the field (spec section 5), then the control. A required field that
 * was never edited carries the initial required mark (asterisk highlighted) instead of a message.
 */
export function FormField({ name, label, summary, required, testId, className, children }: FormFieldProps) {
  const errorText = useErrorText();
  const error = summary.visibleErrors[name];
  const marked = summary.requiredMarks.includes(name);
  return (
    <div
      className={cn('flex flex-col gap-1.5', className)}
      data-field={name}
      data-invalid={error ? 'true' : undefined}
      data-required-mark={marked ? 'true' : undefined}
    >
      <Label htmlFor={name}>
        {label}
        {required && (
          <span className={cn('ml-0.5', marked ? 'text-destructive' : 'text-muted-foreground')} aria-hidden>
            *
          </span>
        )}
      </Label>
      {error && (
        <p
          className="text-xs text-destructive"
          role="alert"
          data-testid={testId ? `${testId}-error` : undefined}
        >
          {errorText(error)}
        </p>
      )}
      {children}
    </div>
  );
}

/** Error marker with the count of fields carrying an error or an unfilled required mark. */
export function FormErrorMarker({ summary, className }: { summary: FormSummary; className?: string }) {
  const { t } = useTranslation();
  if (summary.errorCount === 0) return null;
  return (
    <Badge
      variant="destructive"
      className={cn('gap-1', className)}
      data-testid="form-error-count"
      data-count={summary.errorCount}
    >
      <CircleAlertIcon className="size-3" />
      {t('form.errors', { count: summary.errorCount })}
    </Badge>
  );
}
