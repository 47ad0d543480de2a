/* The host page's "Teach cards" panel: show the camera each card a game needs.
 *
 * Pick a game, see its faces (a green dot: taught), pick a face, lay that card alone under
 * the camera (the live picture shows what it sees) and tap Capture: the companion finds the
 * card, straightens it and saves it as the face it will recognize (/api/decks, web/decks.py).
 * The saved face is shown; Capture again redoes it, Delete forgets it, Next goes on to the
 * next face not taught yet. Refusals ("No card in view: ...") show as one sentence.
 */
"use strict";

const Teach = {
  games: null,
  deck: null,
  selected: null,
  busy: false,

  el(id) { return document.getElementById(id); },

  init() {
    const card = this.el("teach-card");
    if (!card) return;
    card.addEventListener("toggle", () => (card.open ? this.open() : this.stopLive()));
    this.el("teach-game").addEventListener("change", (e) => this.load(e.target.value));
    this.el("teach-capture").addEventListener("click", () => this.capture());
    this.el("teach-delete").addEventListener("click", () => this.remove());
    this.el("teach-next").addEventListener("click", () => {
      const next = this.nextUntaught();
      if (next) this.select(next.id);
    });
    card.dataset.ready = "yes";
    if (card.open) this.open();  // opened before this script ran
  },

  /** One JSON call; {ok, data} or a sentence in the panel. */
  async call(method, path) {
    this.showError(null);
    this.busy = true;
    this.renderButtons();
    try {
      const {ok, data} = await askCompanion(path, {method}, (text) => this.showError(text));
      return ok ? data : null;
    } finally {
      this.busy = false;
      this.renderButtons();
    }
  },

  async open() {
    if (!this.games) {
      const data = await this.call("GET", "/api/decks");
      if (!data) return;
      this.games = data.games;
      const running = typeof Host !== "undefined" && Host.state ? Host.state.game : null;
      const first = this.games.find((g) => g.game === running) || this.games[0];
      fill(this.el("teach-game"), this.games.map((g) =>
        h("option", {value: g.game, text: g.name, selected: first && g.game === first.game})));
      if (first) await this.load(first.game);
      return;
    }
    if (this.selected) this.startLive();
  },

  async load(game) {
    const data = await this.call("GET", "/api/decks/" + encodeURIComponent(game));
    // a game picked while this answer was on its way wins: its own answer is coming
    if (!data || this.el("teach-game").value !== game) return;
    const same = this.deck && this.deck.game === data.game;
    this.deck = data;
    if (!same) this.selected = (data.faces.find((f) => !f.taught) || data.faces[0]).id;
    this.render();
  },

  face() { return this.deck && this.deck.faces.find((f) => f.id === this.selected); },

  /** The first face not taught yet after the selected one (wrapping round), or null. */
  nextUntaught() {
    const faces = this.deck ? this.deck.faces : [];
    const at = Math.max(0, faces.findIndex((f) => f.id === this.selected));
    for (let k = 1; k <= faces.length; k++) {
      const f = faces[(at + k) % faces.length];
      if (!f.taught) return f;
    }
    return null;
  },

  select(id) {
    this.selected = id;
    this.showError(null);
    this.render();
    this.el("teach-station").scrollIntoView({block: "nearest"});
  },

  render() {
    const deck = this.deck;
    if (!deck) return;
    this.el("teach-progress").textContent = deck.taught === deck.total
      ? "All " + deck.total + " cards of " + deck.name + " are taught."
      : deck.taught + " of " + deck.total + " cards taught";
    fill(this.el("teach-faces"), deck.faces.map((f) => h("li", {},
      h("button", {type: "button", text: f.name, title: f.id, dataset: {card: f.id, taught: f.taught ? "yes" : "no"},
                   "aria-pressed": f.id === this.selected ? "true" : "false",
                   "aria-label": f.name + (f.taught ? " (taught)" : " (not taught)"),
                   onclick: () => this.select(f.id)}))));
    const face = this.face();
    this.el("teach-station").hidden = !face;
    if (!face) return;
    // "Show the 0 card", not "Show 0": a bare number reads as a count, not a card's name
    this.el("teach-name").textContent = /^\d+$/.test(face.name) ? "the " + face.name + " card" : face.name;
    const img = this.el("teach-face");
    img.hidden = !face.image;
    this.el("teach-noface").hidden = !!face.image;
    if (face.image) { if (img.getAttribute("src") !== face.image) img.src = face.image; }
    else img.removeAttribute("src");
    if (!deck.camera) {
      this.showError("This companion runs without a camera. Teach from photos instead: " +
                     deck.learn_command);
    }
    this.renderButtons();
    this.startLive();
  },

  renderButtons() {
    const face = this.face();
    if (!face) return;
    const capture = this.el("teach-capture");
    capture.textContent = face.taught ? "Capture again" : "Capture";
    capture.disabled = this.busy || !this.deck.camera;
    this.el("teach-delete").disabled = this.busy || !face.taught;
    const next = face.taught ? this.nextUntaught() : null;
    const button = this.el("teach-next");
    button.hidden = !next;
    button.disabled = this.busy;
    if (next) button.textContent = "Next: " + next.name;
  },

  async capture() {
    const face = this.face();
    if (!face || this.busy) return;
    const data = await this.call("POST", "/api/decks/" + encodeURIComponent(this.deck.game) + "/" +
                                         encodeURIComponent(face.id) + "/capture");
    if (!data) return;
    this.deck = data.deck;
    this.render();
    this.updateGame();
  },

  async remove() {
    const face = this.face();
    if (!face || this.busy) return;
    const data = await this.call("DELETE", "/api/decks/" + encodeURIComponent(this.deck.game) + "/" +
                                           encodeURIComponent(face.id));
    if (!data) return;
    this.deck = data;
    this.render();
    this.updateGame();
  },

  /** Keep the game list's counts in step (they are not shown, but a reopen uses them). */
  updateGame() {
    const entry = this.games && this.games.find((g) => g.game === this.deck.game);
    if (entry) entry.taught = this.deck.taught;
  },

  /** The live picture streams only while the panel is open (it costs the Pi otherwise). */
  startLive() {
    const img = this.el("teach-live");
    const want = this.el("teach-card").open && this.deck && this.deck.camera;
    img.hidden = !want;
    if (want && !img.getAttribute("src")) img.src = "/api/camera/preview.mjpeg";
  },

  stopLive() { this.el("teach-live").removeAttribute("src"); },

  /** The companion is back after being away: a live picture that was streaming stopped. */
  reopenLive() {
    const img = this.el("teach-live");
    if (img.getAttribute("src")) img.src = "/api/camera/preview.mjpeg?again=" + Date.now();
  },

  showError(text) {
    const el = this.el("teach-error");
    el.textContent = text || "";
    el.hidden = !text;
  },
};

Teach.init();
addEventListener("companion:back", () => Teach.reopenLive());
