/* The score chart: one line per player over the turns (or rounds) of state.history,
 * drawn as inline SVG (nothing from a CDN). Colours come from CSS (.series-N), so the
 * chart follows the theme.
 */
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") el.textContent = String(value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) if (child) el.append(child);
  return el;
}

/** How far (chart units) to draw `seat`'s point of `row` off its value, so that players
 *  with equal scores run side by side, a line's width apart, instead of one over the
 *  other: 0 when nobody shares the score. */
function tieShift(row, seat, players) {
  const value = row[seat] || 0;
  const tied = [...Array(players).keys()].filter((s) => (row[s] || 0) === value);
  return (tied.indexOf(seat) - (tied.length - 1) / 2) * 3;  // 3: .chart-line's stroke-width
}

/** A card with the chart of `state.history` (scores per seat after each turn), or null. */
function scoreChart(state, label) {
  const history = state.history || [];
  if (!history.length || !state.players.length) return null;
  const rows = [state.players.map(() => 0), ...history];
  const W = 320, H = 160, L = 30, R = 8, T = 8, B = 22;
  const top = Math.max(1, ...rows.flat());
  const x = (i) => L + (W - L - R) * (rows.length === 1 ? 0 : i / (rows.length - 1));
  const y = (v) => T + (H - T - B) * (1 - v / top);
  const grid = [0, 0.5, 1].map((f) => {
    const v = Math.round(top * f);
    return [svg("line", {class: "chart-grid", x1: L, x2: W - R, y1: y(v), y2: y(v)}),
            svg("text", {class: "chart-axis", x: L - 6, y: y(v) + 4, "text-anchor": "end", text: v})];
  });
  const lines = state.players.map((p, seat) => {
    const ys = rows.map((row) => y(row[seat] || 0) + tieShift(row, seat, state.players.length));
    const points = rows.map((row, i) => x(i).toFixed(1) + "," + ys[i].toFixed(1)).join(" ");
    return svg("g", {class: "series-" + (seat % 8)},
      svg("polyline", {class: "chart-line", points}),
      svg("circle", {class: "chart-dot", cx: x(rows.length - 1), cy: ys[ys.length - 1].toFixed(1), r: 4}));
  });
  const chart = svg("svg", {class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img",
                            "aria-label": "Scores after each " + (label || "turn")},
    grid, lines,
    svg("text", {class: "chart-axis", x: L, y: H - 4, text: "start"}),
    // once over, the last point is the final score (Paper Tales' tally is no "turn 5")
    svg("text", {class: "chart-axis", x: W - R, y: H - 4, "text-anchor": "end",
                 text: state.over ? "end" : (label || "turn") + " " + history.length}));
  const legend = h("ul", {class: "legend"}, state.players.map((p, seat) =>
    h("li", {class: "series-" + (seat % 8)}, h("span", {class: "swatch", "aria-hidden": "true"}),
      h("span", {class: "legend-name", title: p.name, text: p.name}))));
  return h("section", {class: "card chart-card", id: "chart"},
    h("p", {class: "label", text: "Scores over the game"}), chart, legend);
}
