/** A tiny inline bar chart of daily volumes (the member table's last 30 days). */
export function Sparkline({ values, testId }: { values: readonly number[]; testId?: string }) {
  const max = Math.max(...values, 0.0001);
  const w = 90;
  const h = 22;
  const bar = w / Math.max(values.length, 1);
  // Each day has a fixed place, so its x position is its identity.
  const bars = values.map((v, i) => ({ x: i * bar, height: (v / max) * h }));
  return (
    <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} aria-hidden="true" data-testid={testId}>
      {bars.map(({ x, height }) => (
        <rect
          key={x}
          x={x}
          y={h - height}
          width={Math.max(bar - 1, 1)}
          height={height}
          className="fill-sky-500"
        />
      ))}
    </svg>
  );
}
