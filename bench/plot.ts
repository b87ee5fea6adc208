import { SCALING_SLICES } from './corpora.js';
import { type BenchResults, find } from './results.js';

/**
 * The story in one picture, as plain SVG: time against files on log-log axes, the index on the
 * left (ours cold, ctags), the map on the right (ours warm, the packers from scratch).
 */
interface Series {
  name: string;
  color: string;
  points: { x: number; y: number }[];
}

interface Panel {
  title: string;
  series: Series[];
}

const PANEL = { width: 460, height: 360, left: 64, right: 16, top: 40, bottom: 48 };

export function scalingPlot(results: BenchResults): string {
  const seriesOf = (name: string, color: string, scenario: string): Series => ({
    name,
    color,
    points: SCALING_SLICES.flatMap((slice) => {
      const stats = results.slices[slice];
      const m = find(results, slice, scenario);
      return stats && m ? [{ x: stats.files, y: m.wallMs.median / 1000 }] : [];
    }),
  });
  const panels: Panel[] = [
    { title: 'Index: tags of every file', series: [seriesOf('repomap index (cold)', '#d62728', 'cold index'), seriesOf('ctags -R', '#7f7f7f', 'ctags -R')] },
    {
      title: 'Map: a packed view for an LLM',
      series: [
        seriesOf('repomap map (warm, 1024 tokens)', '#d62728', 'warm map 1024'),
        seriesOf('repomix --compress', '#1f77b4', 'repomix --compress'),
        seriesOf('llm-code-highlighter (1024)', '#2ca02c', 'llm-code-highlighter 1024'),
      ],
    },
  ];
  const width = PANEL.width * panels.length;
  const body = panels.map((panel, i) => drawPanel(panel, i * PANEL.width)).join('\n');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${PANEL.height + 24}" viewBox="0 0 ${width} ${PANEL.height + 24}" font-family="sans-serif" font-size="11">\n` +
    `<rect width="100%" height="100%" fill="white"/>\n` +
    `<text x="8" y="${PANEL.height + 16}" fill="#555">repomap benchmark ${results.meta.date}, commit ${results.meta.commit}: median wall time of the whole process, seconds (log) against files (log)</text>\n` +
    `${body}\n</svg>\n`
  );
}

function drawPanel(panel: Panel, offsetX: number): string {
  const points = panel.series.flatMap((series) => series.points);
  if (points.length === 0) return '';
  const [xMin, xMax] = decades(points.map((p) => p.x));
  const [yMin, yMax] = decades(points.map((p) => p.y));
  const plotWidth = PANEL.width - PANEL.left - PANEL.right;
  const plotHeight = PANEL.height - PANEL.top - PANEL.bottom;
  const sx = (x: number) => offsetX + PANEL.left + ((Math.log10(x) - xMin) / (xMax - xMin)) * plotWidth;
  const sy = (y: number) => PANEL.top + plotHeight - ((Math.log10(y) - yMin) / (yMax - yMin)) * plotHeight;
  const out: string[] = [`<text x="${offsetX + PANEL.left}" y="${PANEL.top - 20}" font-size="13" font-weight="bold">${escapeXml(panel.title)}</text>`];
  out.push(`<rect x="${offsetX + PANEL.left}" y="${PANEL.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#333"/>`);
  for (let decade = xMin; decade <= xMax; decade++) {
    const x = sx(10 ** decade);
    out.push(`<line x1="${x}" y1="${PANEL.top}" x2="${x}" y2="${PANEL.top + plotHeight}" stroke="#ddd"/>`);
    out.push(`<text x="${x}" y="${PANEL.top + plotHeight + 16}" text-anchor="middle">${label(10 ** decade)}</text>`);
  }
  for (let decade = yMin; decade <= yMax; decade++) {
    const y = sy(10 ** decade);
    out.push(`<line x1="${offsetX + PANEL.left}" y1="${y}" x2="${offsetX + PANEL.left + plotWidth}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${offsetX + PANEL.left - 6}" y="${y + 4}" text-anchor="end">${label(10 ** decade)} s</text>`);
  }
  out.push(`<text x="${offsetX + PANEL.left + plotWidth / 2}" y="${PANEL.top + plotHeight + 34}" text-anchor="middle">files</text>`);
  panel.series.forEach((series, i) => {
    if (series.points.length === 0) return;
    const path = series.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${path}" fill="none" stroke="${series.color}" stroke-width="2"/>`);
    for (const p of series.points) out.push(`<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" fill="${series.color}"/>`);
    const legendY = PANEL.top + 14 + i * 16;
    out.push(
      `<line x1="${offsetX + PANEL.left + 10}" y1="${legendY - 4}" x2="${offsetX + PANEL.left + 28}" y2="${legendY - 4}" stroke="${series.color}" stroke-width="2"/>`,
    );
    out.push(`<text x="${offsetX + PANEL.left + 34}" y="${legendY}">${escapeXml(series.name)}</text>`);
  });
  return out.join('\n');
}

/** The decades around the values, at least one wide. */
function decades(values: number[]): [number, number] {
  const low = Math.floor(Math.log10(Math.min(...values)));
  const high = Math.ceil(Math.log10(Math.max(...values)));
  return [low, Math.max(high, low + 1)];
}

function label(value: number): string {
  return value >= 1000 ? `${value / 1000}k` : String(Number(value.toPrecision(1)));
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
