/* Shared by every page: a safe DOM builder and the live state connection.
 *
 * Live.connect(onState) opens an EventSource on /api/events and calls onState(state, fresh)
 * with every state whose version is newer than the one shown (stale ones are ignored);
 * `fresh` is true when the state is the very next version, so its `events` are cues of a
 * change the phone watched happen (play them), not a replay after a reconnect.
 * The connection survives Wi-Fi drops and phone sleep: EventSource retries by itself, and
 * on waking (visibilitychange, online) the page refetches /api/state and reopens the
 * stream if the browser gave up.
 */
"use strict";

/** h("div", {class: "x", text: "..."}, child...) builds elements; text is never parsed as HTML. */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace all children of `el` with `children`; a control inside `el` that had the
 *  keyboard's focus hands it to the one drawn in its place (static/js/focus.js). */
function fill(el, ...children) {
  const redraw = () => el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  if (typeof FocusKeep === "undefined") redraw();
  else FocusKeep.around(el, redraw);
  return el;
}

/** What a page says when a request finds no companion; a page may take it back once the
 *  companion answers again. */
const UNREACHABLE = "The companion cannot be reached. Check the Wi-Fi and try again.";

/** One JSON request to the companion: {ok: true, data}, or {ok: false, data} after
 * `showError` was given one sentence saying why (the companion's own, or that it cannot
 * be reached). `init` is fetch's, with JSON accepted and the page's cookies sent. */
async function askCompanion(path, init, showError) {
  try {
    const response = await fetch(path, {credentials: "same-origin", ...init,
                                        headers: {"Accept": "application/json", ...init.headers}});
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const sentence = (data && data.error) || "The companion refused that (" + response.status + ").";
      showError(response.status === 401 ? sentence + " Reload the page to log in again." : sentence);
    }
    return {ok: response.ok, data};
  } catch (e) {
    showError(UNREACHABLE);
    return {ok: false, data: null};
  }
}

const Live = {
  shown: -1,
  last: null,
  source: null,
  opened: false,
  onState: null,
  status: "connecting",

  connect(onState) {
    this.onState = onState;
    this.open();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.resync();
    });
    window.addEventListener("online", () => this.resync());
    window.addEventListener("pageshow", (e) => { if (e.persisted) this.resync(); });
  },

  open() {
    if (this.source) this.source.close();
    const source = new EventSource("/api/events");
    this.source = source;
    // The first state after a (re)connect is the server's current one, so it is shown even
    // if its version is lower (the companion was started on a fresh data folder).
    let first = true;
    source.addEventListener("open", () => {
      this.setStatus("live");
      first = true;
      // back after the companion was away (a restart, a Wi-Fi drop): streams the page holds
      // besides this one (the camera's picture) ended meanwhile and are opened again
      if (this.opened) dispatchEvent(new Event("companion:back"));
      this.opened = true;
    });
    source.addEventListener("state", (e) => {
      this.setStatus("live");
      try { this.accept(JSON.parse(e.data), first); } catch (err) { console.error(err); }
      first = false;
    });
    source.addEventListener("live", (e) => {
      try { this.merge(JSON.parse(e.data)); } catch (err) { console.error(err); }
    });
    source.addEventListener("error", () => {
      if (source !== this.source) return;
      if (source.readyState === EventSource.CLOSED) {
        this.setStatus("offline");
        setTimeout(() => { if (this.source === source) this.open(); }, 3000);
      } else {
        this.setStatus("reconnecting");
      }
    });
  },

  /** Fetch the state now (after sleep) and reopen the stream if the browser gave up. */
  resync() {
    if (!this.source || this.source.readyState === EventSource.CLOSED) this.open();
    this.refresh();
  },

  refresh() {
    return fetch("/api/state", {cache: "no-store"})
      .then((r) => r.json())
      .then((state) => this.accept(state))
      .catch(() => this.setStatus("offline"));
  },

  /** Live extras (camera status, what it saw) for the version shown: merge and redraw. */
  merge(extras) {
    Clock.sync(extras);
    if (!this.last || extras.version !== this.shown) return;
    this.last = {...this.last, ...extras};
    if (this.onState) this.onState(this.last, false);
  },

  /** Show `state` unless it is not newer than what is shown. */
  accept(state, force) {
    if (!state || typeof state.version !== "number") return;
    Clock.sync(state);
    if (state.version <= this.shown && !(force && state.version < this.shown)) return;
    const fresh = state.version === this.shown + 1;
    this.shown = state.version;
    this.last = state;
    if (this.onState) this.onState(state, fresh);
  },

  setStatus(status) {
    this.status = status;
    const el = document.getElementById("conn");
    if (!el) return;
    el.dataset.status = status;
    const words = {live: "Live", connecting: "Connecting", reconnecting: "Reconnecting", offline: "Offline"};
    el.querySelector(".conn-text").textContent = words[status] || status;
  },
};

/** The server's clock: SSE messages carry its `now` (epoch seconds); deadlines in the state
 *  are server times, so countdowns use Clock.now() rather than the phone's own clock. */
const Clock = {
  offset: 0,
  sync(message) {
    if (message && typeof message.now === "number") this.offset = message.now - Date.now() / 1000;
  },
  now() { return Date.now() / 1000 + this.offset; },
};

/** "Unsure: Perfect or Good Throw?" for the cards the camera saw but could not tell from a
 *  look-alike (the live extra `cards.unsure`: [best guess, runner-up or null] pairs). */
function unsureText(unsure, name) {
  return "Unsure: " + unsure.map(([guess, other]) => name(guess) + (other ? " or " + name(other) : "") + "?").join(" · ");
}

/** The camera's sentence about the cards (`cards.message`) as the phones and the TV say it:
 *  one meant for the host ("No deck taught ... run companion deck learn", `for_host`) is
 *  said plainly, as what the host can do. */
function cardsMessage(cards) {
  return cards.for_host ? "The camera does not know this game's cards yet: the host can teach them." : cards.message;
}

/** "4 × Chocolate Chip · Wild" for a list of card ids: each id once, in the order first
 *  seen, with its count when above one; `name(id)` says a card. */
function countedText(ids, name) {
  const counts = new Map();
  for (const id of ids) counts.set(id, (counts.get(id) || 0) + 1);
  return [...counts].map(([id, n]) => (n > 1 ? n + " × " : "") + name(id)).join(" · ");
}

/** Toss Your Cookies' card words, one helper for its host controls and its panel. */
const CookieCards = {
  SPECIAL: {wild: "Wild", "half-eaten": "Half-eaten", milk: "Milk"},

  /** A card's name: the cookie's of this game's setup ("Chocolate Chip"), or Wild, Half-eaten, Milk. */
  name(state, id) {
    const cookie = (state.setup ? state.setup.cookies : []).find((c) => c.id === id);
    return cookie ? cookie.name.replace(/ Cookie$/, "") : CookieCards.SPECIAL[id] || id;
  },

  /** "4 × Chocolate Chip · Wild · Milk" for a list of card ids. */
  hand(state, ids) { return countedText(ids, (id) => CookieCards.name(state, id)); },
};

/** Registries that per-game scripts fill: Panels[gameId](state, ctx) -> Node (scoreboard),
 *  HostControls[gameId](state, ctx) -> Node (host page). */
const Panels = {};
const HostControls = {};
