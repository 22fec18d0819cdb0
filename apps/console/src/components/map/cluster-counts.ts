import type { MapItem } from './map-points';

/**
 * The cluster counts, drawn on a 2D canvas over the map instead of a deck.gl TextLayer: under software
 * WebGL (SwiftShader) the TextLayer's program was the dearest part of the frame that first draws the
 * devices (its readback 0.3 to 0.6 s longer, traces of 2026-11-21), and a dashboard with a map waits for
 * that frame. Text on a 2D canvas needs no WebGL program at all.
 */

export interface CountLabel {
  x: number;
  y: number;
  text: string;
}

/** Labels further than this (CSS px) outside the canvas are not drawn: no count is that wide. */
const LABEL_MARGIN = 40;

/**
 * The count of every cluster in the items, at its projected pixel (CSS px from the map canvas's top left),
 * formatted per locale; clusters projected well off the canvas (the items cover half a screen around it)
 * are left out.
 */
export function clusterCountLabels(
  items: readonly MapItem[],
  project: (position: [number, number]) => { x: number; y: number },
  format: (count: number) => string,
  width: number,
  height: number,
): CountLabel[] {
  const labels: CountLabel[] = [];
  for (const item of items) {
    if (item.kind !== 'cluster') continue;
    const { x, y } = project(item.position);
    if (x < -LABEL_MARGIN || y < -LABEL_MARGIN || x > width + LABEL_MARGIN || y > height + LABEL_MARGIN)
      continue;
    labels.push({ x, y, text: format(item.count) });
  }
  return labels;
}

export interface ClusterCountsHost {
  /** the map's WebGL canvas, whose CSS size the counts' canvas follows */
  canvas: HTMLCanvasElement;
  /** where the counts' canvas is stacked (after the map's canvas, before the controls) */
  container: HTMLElement;
  project: (position: [number, number]) => { x: number; y: number };
}

/**
 * A 2D canvas stacked over the map that draws the counts of the clusters last given to the map's deck.gl
 * layers. draw() is meant for every MapLibre `render` event, the same frame in which deck.gl (interleaved)
 * draws the clusters, so during pans and zooms the numbers stay on their clusters.
 */
export class ClusterCountsCanvas {
  private readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D | null;
  private readonly font: string;
  private items: readonly MapItem[] = [];
  private format: (count: number) => string = String;
  /** something is on the canvas (an empty canvas is not cleared again each frame) */
  private painted = false;

  constructor(private readonly host: ClusterCountsHost) {
    const canvas = document.createElement('canvas');
    canvas.className = 'cluster-counts';
    canvas.setAttribute('aria-hidden', 'true');
    // Clicks, hovers and drags go through to the map (its click hit test and pans, device-map.tsx).
    Object.assign(canvas.style, { position: 'absolute', left: '0', top: '0', pointerEvents: 'none' });
    host.container.appendChild(canvas);
    this.canvas = canvas;
    // willReadFrequently keeps this canvas off the GPU: a few dozen numbers are cheap to raster on the CPU,
    // while an accelerated 2D canvas would draw through SwiftShader too.
    this.context = canvas.getContext('2d', { willReadFrequently: true });
    const family = getComputedStyle(host.container).fontFamily || 'sans-serif';
    this.font = `600 12px ${family}`;
  }

  /** The clusters now given to deck.gl; drawn from the next draw() on. */
  setItems(items: readonly MapItem[]): void {
    this.items = items;
  }

  setFormat(format: (count: number) => string): void {
    this.format = format;
  }

  draw(): void {
    const context = this.context;
    if (!context) return;
    const source = this.host.canvas;
    const width = source.clientWidth;
    const height = source.clientHeight;
    const ratio = window.devicePixelRatio || 1;
    const pixelWidth = Math.round(width * ratio);
    const pixelHeight = Math.round(height * ratio);
    // Setting a canvas's size clears it, so only a changed size is set.
    if (this.canvas.width !== pixelWidth || this.canvas.height !== pixelHeight) {
      this.canvas.width = pixelWidth;
      this.canvas.height = pixelHeight;
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
      this.painted = false;
    }
    const labels = clusterCountLabels(this.items, this.host.project, this.format, width, height);
    if (!this.painted && labels.length === 0) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    context.font = this.font;
    context.fillStyle = '#ffffff';
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    for (const label of labels) context.fillText(label.text, label.x, label.y);
    this.painted = labels.length > 0;
  }

  remove(): void {
    this.canvas.remove();
  }
}
