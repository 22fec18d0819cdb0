import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import {
  type Bounds,
  CALENDAR_TABS,
  type CalendarTab,
  canGoNext,
  fromDateInput,
  LAST_SPANS,
  type LastSpan,
  type Period,
  periodBounds,
  shiftPeriod,
  toDateInput,
} from '../../lib/period';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Tabs, TabsList, TabsTrigger } from '../ui/tabs';
import { ToggleGroup, ToggleGroupItem } from '../ui/toggle-group';

/**
 * The chart period: a period plus the "now" it was chosen at, so the bounds (and the query key) stay
 * put until the user picks again. `initialNow` (default: the first render's time) is the first "now".
 */
export function usePeriod(initial: Period = { kind: 'last', span: '24h' }, initialNow?: number) {
  const [state, setState] = useState(() => ({ period: initial, now: initialNow ?? Date.now() }));
  const bounds: Bounds = periodBounds(state.period, state.now);
  return {
    period: state.period,
    now: state.now,
    bounds,
    setPeriod: (period: Period) => setState({ period, now: Date.now() }),
  };
}

type PeriodState = ReturnType<typeof usePeriod>;

export function PeriodPicker({ state, testId = 'period' }: { state: PeriodState; testId?: string }) {
  const { t, i18n } = useTranslation();
  const { period, bounds, now, setPeriod } = state;
  const tab = period.kind === 'last' ? '' : period.kind;
  const calendar = period.kind !== 'last' && period.kind !== 'range';
  return (
    <div className="flex flex-col gap-2" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-2">
        <ToggleGroup
          type="single"
          value={period.kind === 'last' ? period.span : ''}
          onValueChange={(v) => v && setPeriod({ kind: 'last', span: v as LastSpan })}
          aria-label={t('devices.period.ranges')}
        >
          {LAST_SPANS.map((span) => (
            <ToggleGroupItem key={span} value={span} data-testid={`${testId}-range-${span}`}>
              {t(`devices.period.last-${span}`)}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
        <Tabs
          value={tab}
          onValueChange={(v) => {
            if (v === 'range') {
              setPeriod({ kind: 'range', from: bounds.from, to: Math.min(bounds.to, Date.now()) });
            } else setPeriod({ kind: v as CalendarTab, anchor: Date.now() });
          }}
        >
          <TabsList>
            {[...CALENDAR_TABS, 'range' as const].map((kind) => (
              <TabsTrigger key={kind} value={kind} data-testid={`${testId}-tab-${kind}`}>
                {t(`devices.period.${kind}`)}
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {calendar && (
          <Button
            size="icon"
            variant="outline"
            className="size-8"
            aria-label={t('devices.period.previous')}
            onClick={() => setPeriod(shiftPeriod(period, -1))}
            data-testid={`${testId}-prev`}
          >
            <ChevronLeftIcon />
          </Button>
        )}
        {period.kind === 'range' ? (
          <>
            <Input
              type="date"
              className="h-8 w-40"
              aria-label={t('devices.period.from')}
              value={toDateInput(period.from)}
              max={toDateInput(period.to)}
              onChange={(e) => {
                const from = fromDateInput(e.target.value);
                if (from !== null && from <= period.to) setPeriod({ ...period, from });
              }}
              data-testid={`${testId}-from`}
            />
            <span>–</span>
            <Input
              type="date"
              className="h-8 w-40"
              aria-label={t('devices.period.to')}
              value={toDateInput(period.to)}
              min={toDateInput(period.from)}
              onChange={(e) => {
                const to = fromDateInput(e.target.value);
                if (to !== null && to >= period.from) setPeriod({ ...period, to });
              }}
              data-testid={`${testId}-to`}
            />
          </>
        ) : (
          <span data-testid={`${testId}-label`}>
            {formatDateTime(bounds.from, i18n.language)} – {formatDateTime(bounds.to, i18n.language)}
          </span>
        )}
        {calendar && (
          <Button
            size="icon"
            variant="outline"
            className="size-8"
            aria-label={t('devices.period.next')}
            disabled={!canGoNext(period, now)}
            onClick={() => setPeriod(shiftPeriod(period, 1))}
            data-testid={`${testId}-next`}
          >
            <ChevronRightIcon />
          </Button>
        )}
      </div>
    </div>
  );
}
