/**
 * The results panel of a shoe (seed 000: Punto a blue circle, Banca a red one, Empate a green slash,
 * marks for a natural and for pairs; reset per shoe) drawn as SVG from the engine's ResultsPanel —
 * the API's scoreboard, or one the verifier recomputes with the engine. Colour is never the only
 * signal: results carry their letter (P, B, E), pair and natural marks sit at fixed corners, and the
 * derived roads draw BLUE ("choppy") marks dashed or dotted where RED ("repeats") ones are solid.
 * Every mark has a <title>, every road a text summary.
 */
import type { BeadCell, BigRoadCell, DerivedCell, ResultsPanel } from '@pyb/engine';
import { type Child, h, svg } from './dom';

const ROWS = 6;
const LETTER = { PLAYER: 'P', BANKER: 'B', TIE: 'E' } as const;
const NAME = { PLAYER: 'Punto', BANKER: 'Banca', TIE: 'Empate' } as const;

/** The roads' words: English here; the game client gives its Spanish ones (web/src/play/i18n.ts). */
export interface RoadWords {
  roads: { beadPlate: string; bigRoad: string; bigEyeBoy: string; smallRoad: string; cockroachPig: string };
  marks: { natural: string; playerPair: string; bankerPair: string };
  coup: (n: number) => string;
  noCoup: string;
  beadSummary: (coups: number, last: string) => string;
  thenTies: (ties: number) => string;
  onlyTies: (ties: number) => string;
  bigSummary: (streaks: number, now: string, length: number) => string;
  derivedMark: (i: number, red: boolean) => string;
  notStarted: string;
  derivedSummary: (red: number, blue: number) => string;
  counts: (c: ResultsPanel['counts'], coups: number) => string;
  legend: string;
  legendItems: readonly [string, string, string, string, string, string, string];
}

/** "1 coup", "3 coups": a count and its noun (the roads' words in either language use it). */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const EN_ROAD_WORDS: RoadWords = {
  roads: {
    beadPlate: 'Bead plate',
    bigRoad: 'Big road',
    bigEyeBoy: 'Big eye boy',
    smallRoad: 'Small road',
    cockroachPig: 'Cockroach pig',
  },
  marks: { natural: 'natural', playerPair: 'Punto pair', bankerPair: 'Banca pair' },
  coup: (n) => `Coup ${n}`,
  noCoup: 'no coup yet',
  beadSummary: (coups, last) => `${plural(coups, 'coup', 'coups')}, last ${last}`,
  thenTies: (ties) => `, then ${ties} Empate`,
  onlyTies: (ties) => `${ties} Empate, no Punto or Banca yet`,
  bigSummary: (streaks, now, length) => `${plural(streaks, 'streak', 'streaks')}, now ${now} × ${length}`,
  derivedMark: (i, red) => `${i}: ${red ? 'red (repeats)' : 'blue (choppy)'}`,
  notStarted: 'not started yet',
  derivedSummary: (red, blue) => `${red} red (repeats), ${blue} blue (choppy)`,
  counts: (c, coups) =>
    `${plural(coups, 'coup', 'coups')}: Punto ${c.player}, Banca ${c.banker}, Empate ${c.tie}; naturals ${c.natural}, Punto pairs ${c.playerPair}, Banca pairs ${c.bankerPair}`,
  legend: 'Legend',
  legendItems: [
    'P Punto',
    'B Banca',
    'E Empate (slash on the big road)',
    'square top-right: natural',
    'dot top-left: Banca pair',
    'dot bottom-right: Punto pair',
    'derived roads: red solid = repeats, blue dashed or holed = choppy',
  ],
};

/** "natural, Punto pair" from the marks of a cell ('' when none). */
function marksText(
  cell: { natural: boolean; playerPair: boolean; bankerPair: boolean },
  w: RoadWords,
): string {
  return [
    cell.natural && w.marks.natural,
    cell.playerPair && w.marks.playerPair,
    cell.bankerPair && w.marks.bankerPair,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Pair and natural marks at fixed corners: Banca pair top-left, Punto pair bottom-right, natural top-right. */
function marks(x: number, y: number, size: number, cell: BeadCell | BigRoadCell): SVGElement[] {
  const r = Math.max(2, size * 0.12);
  const out: SVGElement[] = [];
  if (cell.bankerPair)
    out.push(svg('circle', { cx: x + r + 1, cy: y + r + 1, r, class: 'mark-banker-pair' }));
  if (cell.playerPair)
    out.push(svg('circle', { cx: x + size - r - 1, cy: y + size - r - 1, r, class: 'mark-player-pair' }));
  if (cell.natural)
    out.push(
      svg('rect', { x: x + size - 2 * r - 1, y: y + 1, width: 2 * r, height: 2 * r, class: 'mark-natural' }),
    );
  return out;
}

function grid(cols: number, size: number, rows = ROWS): SVGElement {
  const lines: SVGElement[] = [];
  for (let c = 0; c <= cols; c++)
    lines.push(svg('line', { x1: c * size, y1: 0, x2: c * size, y2: rows * size, class: 'grid-line' }));
  for (let r = 0; r <= rows; r++)
    lines.push(svg('line', { x1: 0, y1: r * size, x2: cols * size, y2: r * size, class: 'grid-line' }));
  return svg('g', { 'aria-hidden': 'true' }, lines);
}

function road(
  name: string,
  id: string,
  summary: string,
  cols: number,
  size: number,
  content: Child,
): HTMLElement {
  const width = Math.max(cols, 12);
  return h(
    'figure',
    { class: 'road', 'data-road': id },
    h('figcaption', { id: `${id}-caption` }, name, h('span', { class: 'road-summary' }, ` — ${summary}`)),
    h(
      'div',
      { class: 'road-scroll', tabindex: 0, role: 'group', 'aria-labelledby': `${id}-caption` },
      svg(
        'svg',
        {
          width: width * size,
          height: ROWS * size,
          viewBox: `0 0 ${width * size} ${ROWS * size}`,
          role: 'img',
          'aria-label': `${name}: ${summary}`,
        },
        grid(width, size),
        content,
      ),
    ),
  );
}

function beadPlate(cells: readonly BeadCell[], w: RoadWords, size = 28): HTMLElement {
  const cols = cells.length === 0 ? 0 : Math.max(...cells.map((c) => c.col)) + 1;
  const last = cells.at(-1);
  const content = cells.map((cell) => {
    const x = cell.col * size;
    const y = cell.row * size;
    const extra = marksText(cell, w);
    return svg(
      'g',
      { class: `bead bead-${cell.winner.toLowerCase()}`, 'data-coup': cell.index + 1 },
      svg(
        'title',
        null,
        `${w.coup(cell.index + 1)}: ${NAME[cell.winner]}${cell.total === undefined ? '' : ` ${cell.total}`}${extra ? `, ${extra}` : ''}`,
      ),
      svg('circle', { cx: x + size / 2, cy: y + size / 2, r: size / 2 - 3 }),
      svg(
        'text',
        { x: x + size / 2, y: y + size / 2, 'dominant-baseline': 'central', 'text-anchor': 'middle' },
        LETTER[cell.winner],
      ),
      marks(x, y, size, cell),
    );
  });
  const summary = cells.length === 0 ? w.noCoup : w.beadSummary(cells.length, NAME[last!.winner]);
  return road(w.roads.beadPlate, 'bead-plate', summary, cols, size, content);
}

function bigRoad(panel: ResultsPanel, w: RoadWords, size = 24): HTMLElement {
  const { cells, leadingTies, columns } = panel.bigRoad;
  const cols = cells.length === 0 ? 0 : Math.max(...cells.map((c) => c.col)) + 1;
  const content = cells.map((cell) => {
    const x = cell.col * size;
    const y = cell.row * size;
    const extra = marksText(cell, w);
    const ties = cell.ties + (cell === cells[0] ? leadingTies : 0);
    return svg(
      'g',
      { class: `big big-${cell.winner.toLowerCase()}`, 'data-coup': cell.index + 1 },
      svg(
        'title',
        null,
        `${w.coup(cell.index + 1)}: ${NAME[cell.winner]}${ties ? w.thenTies(ties) : ''}${extra ? `, ${extra}` : ''}`,
      ),
      svg('circle', { cx: x + size / 2, cy: y + size / 2, r: size / 2 - 3, class: 'ring' }),
      svg(
        'text',
        { x: x + size / 2, y: y + size / 2, 'dominant-baseline': 'central', 'text-anchor': 'middle' },
        LETTER[cell.winner],
      ),
      ties > 0 &&
        svg('line', { x1: x + 3, y1: y + size - 3, x2: x + size - 3, y2: y + 3, class: 'tie-slash' }),
      ties > 1 &&
        svg(
          'text',
          { x: x + size - 2, y: y + size - 2, 'text-anchor': 'end', class: 'tie-count' },
          String(ties),
        ),
      marks(x, y, size, cell),
    );
  });
  const streak = columns.at(-1);
  const summary =
    cells.length === 0
      ? leadingTies > 0
        ? w.onlyTies(leadingTies)
        : w.noCoup
      : w.bigSummary(columns.length, NAME[streak![0]!.winner], streak!.length);
  return road(w.roads.bigRoad, 'big-road', summary, cols, size, content);
}

type DerivedShape = 'ring' | 'disc' | 'slash';

function derived(
  name: string,
  id: string,
  cells: readonly DerivedCell[],
  shape: DerivedShape,
  w: RoadWords,
  size = 14,
) {
  const cols = cells.length === 0 ? 0 : Math.max(...cells.map((c) => c.col)) + 1;
  const content = cells.map((cell, i) => {
    const x = cell.col * size;
    const y = cell.row * size;
    const color = cell.color.toLowerCase();
    const title = svg('title', null, w.derivedMark(i + 1, cell.color === 'RED'));
    const c = { cx: x + size / 2, cy: y + size / 2 };
    const mark =
      shape === 'ring'
        ? svg('circle', { ...c, r: size / 2 - 2 })
        : shape === 'disc'
          ? [
              svg('circle', { ...c, r: size / 2 - 2 }),
              // The blue disc has a hole: not only its colour sets it apart.
              cell.color === 'BLUE' && svg('circle', { ...c, r: size / 7, class: 'hole' }),
            ]
          : svg('line', { x1: x + 2, y1: y + size - 2, x2: x + size - 2, y2: y + 2 });
    return svg('g', { class: `derived derived-${shape} derived-${color}` }, title, mark);
  });
  const red = cells.filter((c) => c.color === 'RED').length;
  const summary = cells.length === 0 ? w.notStarted : w.derivedSummary(red, cells.length - red);
  return road(name, id, summary, cols, size, content);
}

const LEGEND_MARKS = [
  'legend-player',
  'legend-banker',
  'legend-tie',
  'legend-natural',
  'legend-banker-pair',
  'legend-player-pair',
  'legend-derived',
] as const;

function legend(w: RoadWords): HTMLElement {
  return h(
    'ul',
    { class: 'road-legend', 'aria-label': w.legend },
    LEGEND_MARKS.map((cls, i) =>
      h('li', null, h('span', { class: `legend-mark ${cls}`, 'aria-hidden': 'true' }), w.legendItems[i]),
    ),
  );
}

/** Counts, the five roads and a legend, in English unless other words are given. */
export function renderPanel(panel: ResultsPanel, w: RoadWords = EN_ROAD_WORDS): HTMLElement {
  return h(
    'div',
    { class: 'panel', 'data-coups': panel.coups },
    h('p', { class: 'counts' }, w.counts(panel.counts, panel.coups)),
    beadPlate(panel.beadPlate, w),
    bigRoad(panel, w),
    h(
      'div',
      { class: 'derived-roads' },
      derived(w.roads.bigEyeBoy, 'big-eye-boy', panel.bigEyeBoy, 'ring', w),
      derived(w.roads.smallRoad, 'small-road', panel.smallRoad, 'disc', w),
      derived(w.roads.cockroachPig, 'cockroach-pig', panel.cockroachPig, 'slash', w),
    ),
    legend(w),
  );
}
