import type { WidgetType } from '@iot/domain';
import { type Dispatch, type SetStateAction, useState } from 'react';
import type { Layout } from 'react-grid-layout';
import { useTranslation } from 'react-i18next';
import type { LineChartSettings, Widget } from '../types';
import { applyLayout, newWidget } from '../widget-layout';

/** Edits of the draft layout in edit mode; nothing reaches the server until the layout is saved. */
export function useWidgetDraft(setDraft: Dispatch<SetStateAction<Widget[] | null>>) {
  const { t } = useTranslation();
  // New widgets get negative ids until the server assigns real ones.
  const [nextId, setNextId] = useState(-1);

  const addWidget = (type: WidgetType) => {
    setDraft((prev) => [...(prev ?? []), newWidget(type, prev ?? [], nextId, t(`dashboards.type.${type}`))]);
    setNextId((n) => n - 1);
  };
  const removeWidget = (id: number) => setDraft((prev) => (prev ?? []).filter((w) => w.id !== id));
  const updateWidget = (next: Widget) =>
    setDraft((prev) => (prev ?? []).map((w) => (w.id === next.id ? next : w)));
  const changePeriod = (id: number, period: Pick<LineChartSettings, 'range' | 'tab'>) =>
    setDraft((prev) =>
      (prev ?? []).map((w) =>
        w.id === id && w.type === 'line_chart' ? { ...w, settings: { ...w.settings, ...period } } : w,
      ),
    );
  const changeLayout = (layout: Layout) => setDraft((prev) => (prev ? applyLayout(prev, layout) : prev));

  return { addWidget, removeWidget, updateWidget, changePeriod, changeLayout };
}
