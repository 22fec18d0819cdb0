import type { ValidationError } from '@iot/domain';
import type * as React from 'react';
import { useErrorText } from '../../../components/ui/form-field';
import { Label } from '../../../components/ui/label';

/** A labelled control with its error above it (spec section 5), for configs outside the form's summary. */
export function ConfigField({
  label,
  error,
  testId,
  children,
}: {
  label: string;
  error?: ValidationError | undefined;
  testId: string;
  children: React.ReactNode;
}) {
  const errorText = useErrorText();
  return (
    <div className="flex flex-col gap-1.5" data-field={testId} data-invalid={error ? 'true' : undefined}>
      <Label>{label}</Label>
      {error && (
        <p className="text-xs text-destructive" role="alert" data-testid={`${testId}-error`}>
          {errorText(error)}
        </p>
      )}
      {children}
    </div>
  );
}
