/* The history page: per-player wins and averages per game, and every game's result,
 * from GET /api/history. Names are shown as text, never parsed.
 */
"use strict";

const History = {
  shown: null,  // the history drawn, as JSON text

  async load() {
    let data;
    try {
      const response = await fetch("/api/history", {cache: "no-store"});
      data = await response.json();
    } catch (e) {
      fill(document.getElementById("stats"), h("p", {class: "error", text: "The companion cannot be reached."}));
      this.shown = null;
      return;
    }
    // the page loads once by itself and again when the live stream connects: the same
    // history is not drawn again (no flicker, and a row being read is not swapped away)
    const text = JSON.stringify(data);
    if (text === this.shown) return;
    this.shown = text;
    this.render(data);
  },

  render(data) {
    const names = Object.fromEntries(data.games.map((g) => [g.game, g.name]));
    const byGame = {};
    for (const row of data.players) (byGame[row.game] = byGame[row.game] || []).push(row);
    const stats = Object.entries(byGame).map(([game, rows]) => h("div", {class: "stats-game", dataset: {game}},
      h("h3", {class: "touch-title", text: names[game] || game}),
      // the roles keep it a table for screen readers where a phone lays its rows out as grids
      h("table", {class: "stats-table", role: "table"},
        h("thead", {role: "rowgroup"}, h("tr", {role: "row"}, [["Player"], ["Played"], ["Wins"], ["Win %"], ["Average", "Avg"], ["Best"]].map(([long, short]) =>
          h("th", short ? {role: "columnheader", title: long, "aria-label": long} : {role: "columnheader", text: long},
            short ? [h("span", {class: "long", text: long}), h("span", {class: "short", text: short, "aria-hidden": "true"})] : null)))),
        h("tbody", {role: "rowgroup"}, rows.map((r) => h("tr", {role: "row"},
          h("td", {role: "rowheader", text: r.player}), [r.played, r.wins, Math.round(r.win_rate * 100) + "%", r.average, r.best]
            .map((n) => h("td", {role: "cell", class: "n", text: n}))))))));
    fill(document.getElementById("stats"), h("h2", {text: "Wins and averages"}),
      stats.length ? stats : h("p", {class: "hint", text: "No finished games yet."}));
    fill(document.getElementById("games"), h("h2", {text: "Games"}),
      data.games.length ? h("ol", {class: "games-list"}, data.games.map((g, i) => h("li", {dataset: {id: g.id}},
        h("p", {class: "label", text: g.name + " · " + new Date(g.started_at * 1000).toLocaleString() + status(g, i)}),
        h("p", {class: "history-line"}, g.players.map((p, i) => [i ? " · " : "",
          h("span", {class: p.winner ? "won" : "", text: p.name + " " + p.score})]))))) : h("p", {class: "hint", text: "No games yet."}));
  },
};

/** Games come newest first: only the newest can still be on the table; an older one that
 *  did not finish was left when a new game started. */
function status(game, index) {
  if (game.finished) return "";
  return index === 0 ? " · still playing" : " · not finished";
}

History.load();
Live.connect(() => History.load());
