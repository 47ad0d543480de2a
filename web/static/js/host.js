/* The host page: new game, the running game's actions, undo with the recent actions.
 *
 * A game's controls are registered by a script in static/js/host/:
 *   HostControls["toss-up"] = {render(state, send) -> Node, describe(action) -> string};
 * `send(action)` posts to /api/actions and resolves to true when it was accepted.
 * Games without their own controls get generic forms built from the catalogue (every
 * registered game's ACTIONS, embedded in the page as JSON).
 */
"use strict";

const CATALOG = JSON.parse(document.getElementById("catalog").textContent);
const GAMES = Object.fromEntries(CATALOG.map((g) => [g.id, g]));

const Host = {
  state: null,
  busy: false,

  /** POST `body` to `path`; resolves to true when accepted. While one request is on its way
   *  another is not sent (a double tap records one roll), and false is returned at once. */
  async post(path, body) {
    if (this.busy) return false;
    this.showError(null);
    this.busy = true;
    try {
      // a request lost on the way (Wi-Fi gone) ends after 15 s, so taps are not ignored for ever
      const signal = typeof AbortSignal.timeout === "function" ? AbortSignal.timeout(15000) : undefined;
      const {ok, data} = await askCompanion(path, {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(body || {}), signal,
      }, (text) => this.showError(text));
      if (ok) Live.accept(data);
      return ok;
    } finally {
      this.busy = false;
    }
  },

  /** Send an action for the version shown: if the game moved on meanwhile (another host,
   *  the table's buttons), the companion refuses it (409) instead of applying it twice. */
  send(action) { return Host.post("/api/actions", Host.seen(action)); },

  /** `body` with the version of the state this page shows, when it shows one. */
  seen(body) {
    return Host.state && typeof Host.state.version === "number" ? {...body, version: Host.state.version} : body;
  },

  showError(text) {
    const el = document.getElementById("error");
    el.textContent = text || "";
    el.hidden = !text;
  },

  render(state) {
    const before = this.state;
    this.state = state;
    const error = document.getElementById("error");  // a state came: the companion is back
    if (error.textContent === UNREACHABLE) this.showError(null);
    document.getElementById("title").textContent = state.name ? "Host · " + state.name : "Host";
    document.body.dataset.version = state.version;
    Calls.sync(state.calls);
    const controls = HostControls[state.game];
    fill(document.getElementById("status"), statusLine(state));
    // a damaged journal was moved aside on start: what could be recovered, in one sentence
    const journal = document.getElementById("journal-notice");
    journal.hidden = !state.journal;
    journal.textContent = state.journal ? state.journal.message : "";
    const box = document.getElementById("controls");
    box.hidden = !state.game || state.over;
    if (state.game && !state.over) {
      fill(box, controls && controls.render ? controls.render(state, this.send) : genericControls(state, this.send));
    } else {
      fill(box);
    }
    this.renderRecent(state, controls);
    document.getElementById("correct-card").hidden = !state.game || state.over;
    document.getElementById("rename-card").hidden = !state.game || state.over;
    document.getElementById("preview-card").hidden = !state.camera;
    const game = GAMES[state.game];
    teachOffered(!game || game.cards);
    const idle = document.getElementById("preview-idle");  // a game the camera reads nothing in
    idle.hidden = !game || game.camera;
    idle.textContent = idle.hidden ? "" : "The camera reads nothing in " + game.name + ": the host taps what happens. The picture only helps to aim the camera.";
    previewNotice(state.camera);
    if (state.game && !state.over) { Correction.render(state); Rename.render(state); }
    const details = document.getElementById("new-game");
    const setup = !state.game || state.over;
    if (setup) details.open = true;
    if (!this.joinShown) { this.joinShown = true; document.getElementById("join").open = setup; }
    document.querySelector(".host-main").classList.toggle("setup", setup);
    document.getElementById("undo-card").hidden = !state.game;
    NewGame.prefill(state);
    for (const [was, name] of renames(state, before)) NewGame.renamed(was, name);
  },

  renderRecent(state, controls) {
    const recent = (state.recent || []).slice().reverse();
    const describe = (controls && controls.describe) || describeAction;
    fill(document.getElementById("recent"), recent.length ? recent.map((a) => h("li", {},
      h("span", {class: "recent-what", text: describe(a)}),
      h("span", {class: "recent-time", text: clock(a.at)}))) : h("li", {class: "empty", text: "No actions yet"}));
    document.getElementById("undo").disabled = !recent.length;
  },
};

/** The score correction: a player, +/- points and a reason, sent as {type: "correct"}. */
const Correction = {
  draft: {player: null, delta: 1, reason: ""},

  render(state) {
    const typing = document.activeElement && document.activeElement.id === "correct-reason";
    if (typing && this.shownFor === state.players.map((p) => p.name).join()) return;  // keep the caret
    this.shownFor = state.players.map((p) => p.name).join();
    const d = this.draft;
    if (d.player !== null && d.player >= state.players.length) d.player = null;
    const redraw = () => this.render(state);
    const reason = h("input", {type: "text", id: "correct-reason", maxlength: 200, value: d.reason,
                               placeholder: "Why? e.g. miscounted the roll", "aria-label": "Reason",
                               oninput: (e) => { d.reason = e.target.value; button.disabled = !this.ready(); }});
    const button = h("button", {type: "button", id: "correct-send", class: "btn primary big",
                                text: "Correct" + (d.player === null ? "" : " " + state.players[d.player].name + " " + (d.delta > 0 ? "+" : "") + d.delta),
                                disabled: !this.ready(), onclick: async () => {
                                  if (await Host.send({type: "correct", player: d.player, delta: d.delta, reason: d.reason.trim()})) {
                                    this.draft = {player: null, delta: 1, reason: ""};
                                    document.getElementById("correct-card").open = false;
                                  }
                                }});
    fill(document.getElementById("correct-form"),
      Touch.players(state, (seat) => { d.player = seat; redraw(); }, {selected: d.player, label: "Whose score"}),
      Touch.stepper("Points", d.delta, (v) => { d.delta = v === 0 ? (d.delta > 0 ? -1 : 1) : v; redraw(); }, {min: -50, max: 50}),
      reason, button);
  },

  ready() { return this.draft.player !== null && this.draft.delta !== 0 && this.draft.reason.trim() !== ""; },
};

function clock(at) {
  if (typeof at !== "number") return "";
  return new Date(at * 1000).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

/** The name of the player an action names, by seat index or by name in any case (the API
 *  takes both): "Ann" for 0, "ann" or "Ann". A name not at the table is shown as sent. Every
 *  game's Recent line names players through this. */
function playerName(ref) {
  const players = Host.state ? Host.state.players : [];
  if (typeof ref === "number") return players[ref] ? players[ref].name : "seat " + (ref + 1);
  if (typeof ref !== "string") return "?";
  const said = ref.trim().toLocaleLowerCase();
  const found = players.find((p) => p.name.toLocaleLowerCase() === said);
  return found ? found.name : ref;
}

/** [[old name, new name]] for each name this change replaced: a rename, or the undo of
 *  one (the last Recent line of the state shown just before). */
function renames(state, before) {
  const found = [];
  for (const event of state.events || []) {
    if (event.kind === "rename") found.push([event.was, event.name]);
    const undone = event.kind === "undo" && before && before.version === state.version - 1
      && before.recent && before.recent[before.recent.length - 1];
    if (undone && undone.type === "rename" && undone.was) found.push([undone.name.trim(), undone.was]);
  }
  return found;
}

const ACTION_WORDS = {toggle: "Timer start / pause", start: "Timer start", resume: "Timer start", pause: "Timer pause",
                      next: "Next", skip: "Skip ahead", timeout: "Time's up", toss: "Toss", pass: "Pass",
                      bank: "Bank", accept: "Accept", block: "Don't Be SORRY!", "no-counter": "No counter",
                      "energy-drink": "Energy Drink"};

function describeAction(action) {
  if (action.type === "add_time") return "+" + action.seconds + " s on the timer";
  if (action.type === "rename") return "Renamed " + (action.was || playerName(action.player)) + " to " + action.name;  // was: the name it replaced
  const listed = (k) => k !== "type" && k !== "at" && k !== "turn";  // turn: whose turn it was, added by the session
  if (ACTION_WORDS[action.type] && !Object.keys(action).some(listed)) return ACTION_WORDS[action.type];
  if (action.type === "correct") {
    return "Correction: " + playerName(action.player) + " " + (action.delta > 0 ? "+" : "") + action.delta + " (" + action.reason + ")";
  }
  const rest = Object.entries(action).filter(([k]) => listed(k))
    .map(([k, v]) => k + " " + (typeof v === "object" ? JSON.stringify(v) : v));
  return action.type + (rest.length ? ": " + rest.join(", ") : "");
}

/** "Teach cards" before a game and in a game whose cards the camera reads, not in Toss
 * Up! (dice) or Paper Tales (taps); hiding it closes it, which stops its live picture. */
function teachOffered(offered) {
  const card = document.getElementById("teach-card");
  card.hidden = !offered;
  if (!offered && card.open) card.open = false;
}

/** Over the preview while the camera gives no picture: what is wrong and what to do (the
 *  picture under it, dimmed, is the last one it took). `camera`: the live extra {online, status}. */
function previewNotice(camera) {
  const notice = document.getElementById("preview-offline");
  const down = Boolean(camera) && camera.online === false;
  const starting = down && /^camera starting/i.test(camera.status || "");
  notice.hidden = !down;
  document.getElementById("preview").classList.toggle("stale", down);
  if (!down) { fill(notice); return; }
  fill(notice,
    h("strong", {class: "preview-offline-title", text: starting ? "Camera starting" : "Camera offline"}),
    camera.status ? h("span", {class: "preview-offline-why", text: camera.status}) : null,
    h("span", {class: "preview-offline-todo", text: starting
      ? "Waiting for its first picture. If this lasts, check its cable and power."
      : "Check its cable and power: it reconnects by itself. Its last picture is behind this."}));
}

function statusLine(state) {
  if (!state.game) return h("p", {class: "status-text", text: "No game running yet."});
  if (state.over) {
    return h("p", {class: "status-text", text: "Game over: " + (state.winners.join(" & ") || "no winner") + " won."
                                                + (state.tie_break ? " " + state.tie_break : "")});
  }
  return h("div", {class: "status-line"},
    h("p", {class: "label", text: "Scores"}),
    h("span", {class: "status-scores"}, state.players.map((p, seat) =>
      h("span", {class: "mini" + (seat === state.current ? " current" : ""), title: p.name},
        h("span", {class: "mini-name", text: p.name}), " " + p.score))));
}

/** Forms for each action of a game without its own host controls. */
function genericControls(state, send) {
  const game = GAMES[state.game];
  if (!game) return h("p", {class: "hint", text: "This game has no controls here yet."});
  return h("div", {class: "generic-actions"}, game.actions.map((action) => {
    const inputs = Object.entries(action.properties).map(([name, schema]) => fieldFor(name, schema, action.example[name]));
    const form = h("form", {class: "action-form", onsubmit: async (e) => {
      e.preventDefault();
      const body = {type: action.type};
      for (const input of inputs) {
        const value = readField(input.querySelector("[name]"));
        if (value !== undefined) body[input.dataset.name] = value;
      }
      await send(body);
    }}, inputs, h("button", {type: "submit", class: "btn primary", text: action.type}));
    return h("section", {class: "action"}, h("p", {class: "hint", text: action.summary}), form);
  }));
}

function fieldFor(name, schema, example) {
  const id = "f-" + name + "-" + Math.random().toString(36).slice(2, 7);
  let input;
  if (schema.type === "integer" || schema.type === "number") {
    input = h("input", {id, name, type: "number", inputmode: "numeric", min: schema.minimum, max: schema.maximum,
                        value: example ?? "", dataset: {kind: "number"}});
  } else if (schema.type === "boolean") {
    input = h("input", {id, name, type: "checkbox", checked: !!example, dataset: {kind: "boolean"}});
  } else if (schema.enum) {
    input = h("select", {id, name, dataset: {kind: "json"}},
      schema.enum.map((v) => h("option", {value: JSON.stringify(v), text: v, selected: v === example})));
  } else if (schema.type === "string") {
    input = h("input", {id, name, type: "text", value: example ?? "", dataset: {kind: "string"}});
  } else {
    const shown = example === undefined ? "" : typeof example === "string" ? example : JSON.stringify(example);
    input = h("input", {id, name, type: "text", value: shown, dataset: {kind: "json"}});
  }
  const words = name.replace(/_/g, " ");
  return h("div", {class: "field", dataset: {name}},
    h("label", {for: id, text: words.charAt(0).toUpperCase() + words.slice(1)}), input);
}

function readField(input) {
  const kind = input.dataset.kind;
  if (kind === "boolean") return input.checked;
  if (input.value === "") return undefined;
  if (kind === "number") return Number(input.value);
  if (kind === "json") { try { return JSON.parse(input.value); } catch (e) { return input.value; } }
  return input.value;
}

document.getElementById("undo").addEventListener("click", () => Host.post("/api/undo", Host.seen({})));
// learn this table's dice from the live frame; say what was learnt (or why not) under it
document.getElementById("calibrate").addEventListener("click", async (event) => {
  const said = document.getElementById("calibrate-said");
  event.target.disabled = true;
  said.hidden = true;
  const {ok, data} = await askCompanion("/api/camera/calibrate", {method: "POST"}, (text) => {
    said.textContent = text; said.hidden = false;
  });
  if (ok) { said.textContent = data.message; said.hidden = false; }
  event.target.disabled = false;
});

// The live picture streams only while its card is open (it costs the Pi nothing otherwise).
// When the companion has no room for it (503), Preview retries (static/js/preview.js).
document.getElementById("preview-card").addEventListener("toggle", (e) => {
  if (e.target.open) Preview.open();
  else Preview.close();
});
// The stream reopened: the companion is back, even when no new state comes with it (the
// version did not change while it was away), so its "cannot be reached" banner goes.
addEventListener("companion:back", () => {
  if (document.getElementById("error").textContent === UNREACHABLE) Host.showError(null);
});
// A picture streaming when the companion went away stopped (black after a restart): reopen.
addEventListener("companion:back", () => {
  if (Preview.isOpen()) Preview.open();
});

NewGame.init();
Live.connect((state) => Host.render(state));
