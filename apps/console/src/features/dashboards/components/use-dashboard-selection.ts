import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Dashboard, Widget } from '../types';

/**
 * Which dashboard is shown (`?dashboard=<id>`, else the first) and the edit draft of its widgets: `draft`
 * is null outside edit mode. Choosing another dashboard drops the draft.
 */
export function useDashboardSelection(list: readonly Dashboard[]) {
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState<Widget[] | null>(null);
  const wanted = Number(params.get('dashboard'));
  const current: Dashboard | undefined = list.find((d) => d.id === wanted) ?? list[0];
  const select = (id: number) => {
    setDraft(null);
    setParams({ dashboard: String(id) });
  };
  const clear = () => {
    setDraft(null);
    setParams({});
  };
  return { current, draft, setDraft, select, clear };
}
