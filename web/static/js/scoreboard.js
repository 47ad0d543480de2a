/* The phone scoreboard: renders the whole state on connect and on every change.
 *
 * A game's panel is registered by a script in static/js/panels/:
 *   Panels["toss-up"] = {render(state) -> Node, cue(event, state) -> {text, tone} | null};
 * games without a panel get the generic one (players, scores, whose turn).
 */
"use strict";

const Board = {
  toastTimer: null,

  render(state, fresh) {
    document.getElementById("title").textContent = state.name || "Scoreboard";
    document.title = (state.name ? state.name + " · " : "") + "Scoreboard";
    const board = document.getElementById("board");
    board.dataset.version = state.version;
    board.dataset.game = state.game || "";
    const panel = Panels[state.game];
    let content;
    if (!state.game) content = this.waiting();
    else if (panel && panel.render) content = panel.render(state);
    else content = genericPanel(state);
    fill(board, state.over ? winnerBanner(state) : null, twoColumns(content));
    fitTv(board);
    Calls.sync(state.calls);
    if (fresh) this.cues(state, panel);
  },

  waiting() {
    return h("section", {class: "waiting"},
      h("img", {class: "waiting-icon", src: "/static/img/icon.svg", alt: "", width: 96, height: 96}),
      h("p", {class: "waiting-big", text: "Waiting for a game"}),
      h("p", {class: "hint", text: "The host starts one from the host page; this screen follows along by itself."}));
  },

  cues(state, panel) {
    const events = state.events || [];
    let shown = null;
    let sound = null;
    for (const event of events) {
      const cue = (panel && panel.cue && panel.cue(event, state)) || genericCue(event);
      if (cue) shown = cue;  // the last cue of a change is the most important one
      if (cue && cue.sound) sound = cue.sound;
      if (cue && cue.say) Cues.say(cue.say);
    }
    if (shown) this.toast(shown.text, shown.tone);
    if (sound) Cues.play(sound);
  },

  toast(text, tone) {
    const el = document.getElementById("toast");
    el.textContent = text;
    el.dataset.tone = tone || "info";
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
  },
};

/** Names break between words, never inside one (names.css). A list of rows where a name has
 *  no room beside its pips gets .stacked (the pips go under the names); then a name still
 *  too wide shrinks to fit, to 70% of its size at most; past that its word ends in "…". */
function fitNames(board) {
  const names = [...board.querySelectorAll(".player-name, .now-name, .winner-names, .final-name")];
  const cut = (el) => el.scrollWidth > el.clientWidth;
  for (const el of names) el.style.fontSize = "";
  for (const list of board.querySelectorAll(".players")) {
    list.classList.remove("stacked");
    list.classList.toggle("stacked", [...list.querySelectorAll(".player-name")].some(cut));
  }
  for (const el of names.filter(cut)) {
    const size = parseFloat(getComputedStyle(el).fontSize);
    el.style.fontSize = Math.max(0.7, 0.98 * el.clientWidth / el.scrollWidth) * size + "px";
  }
}

/** Split a panel into its main column and a side column (scores, chart): one above the
 *  other in portrait, side by side in landscape. */
function twoColumns(panel) {
  const side = [...panel.children].filter((el) => el.matches(".table, .chart-card"));
  if (!side.length || side.length === panel.children.length) return panel;
  const main = [...panel.children].filter((el) => !side.includes(el));
  return fill(panel, h("div", {class: "main"}, main), h("div", {class: "side"}, side));
}

/** The winner card's rows: the engine's final order (`result.order`: winners first, then
 *  the game's own order, players who left last), else by score (a state from before it). */
function finalOrder(state) {
  if (state.result && state.result.order) return state.result.order;
  const names = state.winners || [];
  return state.players.map((p, seat) => ({...p, seat, won: names.includes(p.name)}))
    .sort((a, b) => b.won - a.won || b.score - a.score || a.seat - b.seat);
}

function winnerBanner(state) {
  const names = state.winners || [];
  const title = names.length > 1 ? "Shared win!" : "Winner!";
  const why = (state.result && state.result.why) || state.tie_break;  // "Cy wins the tie on Gold: 12 to 9"
  return h("section", {class: "winner", id: "winner"},
    h("div", {class: "winner-cup", "aria-hidden": "true"}),
    h("p", {class: "winner-title", text: title}),
    h("p", {class: "winner-names", text: names.join(" & ") || "Game over"}),
    why ? h("p", {class: "winner-why", id: "tie-break", text: why}) : null,
    h("ol", {class: "final"}, finalOrder(state).map((p) =>
      h("li", {class: (p.won ? "won" : "") + (p.left ? " left" : "")},
        h("span", {class: "final-name", title: p.name, text: p.name}),
        p.left ? h("span", {class: "final-left", text: "left"}) : null,
        h("span", {class: "final-score", text: p.score})))));
}

/** One row per player: seat order, score, the player to act highlighted. */
function playerList(state, extra) {
  const top = Math.max(...state.players.filter((p) => !p.left).map((p) => p.score), 0);
  return h("ol", {class: "players"}, state.players.map((p, seat) => {
    const current = state.current === seat && !state.over;
    return h("li", {class: "player" + (current ? " current" : "") + (p.score === top && top > 0 && !p.left ? " leading" : "") + (p.left ? " left" : ""),
                    "aria-current": current ? "true" : null},
      h("span", {class: "player-mark", "aria-hidden": "true", text: current ? "▶" : ""}),
      h("span", {class: "player-name", title: p.name, text: p.name}),
      extra ? extra(p, seat) : null,
      h("span", {class: "player-score", text: p.score}));
  }));
}

function genericPanel(state) {
  const current = state.current === null || state.current === undefined ? null : state.players[state.current];
  return h("section", {class: "panel generic"},
    !state.over ? h("div", {class: "now"},
      h("p", {class: "label", text: current ? "Now playing" : "Everyone plays"}),
      h("p", {class: "now-name", text: current ? current.name : "All together"})) : null,
    h("section", {class: "table"}, playerList(state)),
    scoreChart(state, "turn"));
}

/** What the camera reads of the cards on the table, as the host page shows it (live extras
 *  `camera`, `hand` and `cards` {seen, unsure, offer, message}); null without a camera.
 *  `name(id)` words a card, `offered(action)` the action the camera offers the host. */
function cardsSaw(state, name, offered) {
  const camera = state.camera;
  const cards = state.cards || {};
  if (!camera && !state.cards) return null;
  const online = camera ? camera.online : true;
  const seen = cards.seen || [];
  const unsure = cards.unsure || [];
  return h("section", {class: "camera-saw", id: "camera-saw"},
    h("div", {class: "odds-head"},
      h("span", {class: "label", text: online ? "The camera sees" : "The camera last saw"}),
      h("span", {class: "cam-status" + (online ? " on" : " off"), text: online ? "watching" : "camera offline"})),
    state.hand ? h("p", {class: "hint", text: "A hand is over the table: the camera looks once it has gone."}) : null,
    seen.length
      ? h("div", {class: "cards", id: "camera-cards"}, seen.map((id) => h("span", {class: "card-face " + id, text: name(id)})))
      : unsure.length || !cards.message  // a message with nothing in view says why ("No deck taught")
        ? h("p", {class: "roll-none", id: "camera-cards", text: unsure.length ? "No card it is sure of" : "No card of this deck in view"}) : null,
    unsure.length ? h("p", {class: "hint", id: "camera-unsure", text: unsureText(unsure, name)}) : null,
    // a message for the host ("No deck taught ... run companion deck learn") is said plainly here
    cards.message ? h("p", {class: "hint", id: "camera-message", text: cardsMessage(cards)}) : null,
    cards.offer ? h("p", {class: "offer", id: "camera-offer", text: "Waiting for the host to confirm: " + offered(cards.offer)}) : null);
}

const CUE_WORDS = {"new-game": ["New game!", "info", "tick"], "undo": ["Undone", "info", "tick"],
                   "game-over": ["Game over", "good", "win"], "correct": [null, "info", "tick"]};

function genericCue(event) {
  const words = CUE_WORDS[event.kind];
  if (!words) return null;
  const text = event.kind === "correct"
    ? "Score corrected: " + event.player + " " + (event.delta > 0 ? "+" : "") + event.delta + (event.reason ? " (" + event.reason + ")" : "")
    : event.kind === "undo" && event.undone ? "Undone: " + event.undone  // "Undone: Ann's roll"
    : words[0];
  return {text, tone: words[1], sound: words[2]};
}

addEventListener("resize", () => fitTv(document.getElementById("board")));  // a phone turned

Live.connect((state, fresh) => Board.render(state, fresh));
