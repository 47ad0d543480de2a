/* Big touch targets for the host page: choice grids, player pickers, steppers, action
 * buttons. Each game's host controls (static/js/host/<game>.js) are built from these.
 */
"use strict";

const Touch = {
  /** A big button that sends `action` (a dict, or a function returning one). */
  act(text, action, send, opts) {
    const o = opts || {};
    return h("button", {type: "button", class: "btn big " + (o.tone || "primary"), id: o.id, disabled: o.disabled,
                        "aria-label": o.label, text, dataset: {sends: "1"},
                        onclick: async (e) => {
                          const body = typeof action === "function" ? action() : action;
                          if (!body) return;
                          const button = e.currentTarget;
                          FocusKeep.note(button);  // disabling it takes its focus: the redraw gives it back
                          button.disabled = true;
                          if (await send(body)) return;
                          button.disabled = false;
                          if (FocusKeep.pending === button) {  // refused: focus back where it was, unless it moved on
                            FocusKeep.pending = null;
                            if (!document.activeElement || document.activeElement === document.body) button.focus({preventScroll: true});
                          }
                        }});
  },

  /** A grid of buttons, one per [value, text]; onPick(value). `selected` is highlighted. */
  choices(items, onPick, opts) {
    const o = opts || {};
    return h("div", {class: "choices" + (o.cols ? " cols-" + o.cols : ""), role: "group", "aria-label": o.label},
      items.map(([value, text, extra]) => h("button", {
        type: "button", class: "choice" + (extra && extra.class ? " " + extra.class : ""),
        "aria-pressed": o.multi || o.selected !== undefined ? String(o.multi ? o.multi.includes(value) : value === o.selected) : null,
        disabled: extra && extra.disabled, dataset: {value: JSON.stringify(value)}, text,
        onclick: () => onPick(value)})));
  },

  /** Buttons with the players' names; onPick(seat). `skip(seat)` disables some. */
  players(state, onPick, opts) {
    const o = opts || {};
    return Touch.choices(state.players.map((p, seat) => [seat, p.name, {disabled: o.skip && o.skip(seat)}]),
                         onPick, {label: o.label || "Player", selected: o.selected, cols: o.cols});
  },

  /** − value + with big buttons; onChange(newValue). */
  stepper(label, value, onChange, opts) {
    const o = {min: 0, max: 999, step: 1, ...(opts || {})};
    return h("div", {class: "stepper plain"},
      h("span", {class: "stepper-label", text: label}),
      h("button", {type: "button", class: "step minus", "aria-label": label + " minus " + o.step, text: "−",
                   disabled: value - o.step < o.min, onclick: () => onChange(value - o.step)}),
      h("output", {class: "step-count", text: value}),
      h("button", {type: "button", class: "step plus", "aria-label": label + " plus " + o.step, text: "+",
                   disabled: value + o.step > o.max, onclick: () => onChange(value + o.step)}));
  },

  /** What the camera reads of the cards on the table (live extra `cards`: {seen, unsure,
   *  offer, message}) and the action it offers, confirmed with one tap; null without a camera.
   *  `describe(action)` words the offer, `name(cardId)` a card. */
  cameraCards(state, describe, name) {
    const camera = state.camera;
    const cards = state.cards || {};
    if (!camera && !state.cards) return null;
    const offline = Boolean(camera && !camera.online);
    const seen = cards.seen || [];
    return Touch.section("Camera" + (camera ? (offline ? " · offline" : " · watching") : ""),
      offline && camera.status ? h("p", {class: "hint", text: camera.status}) : null,
      state.hand ? h("p", {class: "hint", text: "A hand is over the table: the camera reads the cards once it has gone."}) : null,
      seen.length || !cards.message  // a message with nothing in view says why ("No deck taught")
        ? h("p", {class: "hint", id: "camera-cards",
                  text: seen.length ? (offline ? "Last saw: " : "Sees: ") + seen.map(name).join(" · ") : "No known card in view."}) : null,
      cards.unsure && cards.unsure.length ? h("p", {class: "hint", id: "camera-unsure", text: unsureText(cards.unsure, name)}) : null,
      cards.message ? h("p", {class: "hint", text: cards.message}) : null,
      cards.offer ? h("button", {type: "button", class: "btn good big", id: "confirm-camera",
                                 text: "Confirm: " + describe({...cards.offer, turn: state.current}),
                                 onclick: () => Host.post("/api/camera/confirm", {offer: cards.offer})}) : null);
  },

  /** A titled block of the host controls. */
  section(title, ...children) {
    return h("section", {class: "touch-section"}, title ? h("h3", {class: "touch-title", text: title}) : null, children);
  },

  /** Whether a timer waits to be started, never run yet (Paper Tales' first phase): then
   *  Start timer is the step to take, not what the other buttons do. */
  timerWaits(state) {
    return timerWaits(state.timer);
  },

  /** Pause/resume, +seconds and the extra buttons for a game's running timer.
   *  `opts.addWhilePaused: false` for a game that adds time only to a running timer. */
  timerBar(state, send, extra, opts) {
    const timer = state.timer;
    const running = Boolean(timer && timer.running);
    const started = timer && !running && typeof timer.remaining_at_pause === "number" && timer.remaining_at_pause < timer.duration;
    const spent = started && timer.remaining_at_pause === 0;  // time's up: nothing to resume (add time or move on)
    return h("div", {class: "timer-bar"},
      h("div", {class: "timer-big"}, timerView(timer, "host-clock")
        || h("span", {class: "clock paused none", id: "no-timer", text: state.phase ? "No timer in this phase" : "No timer"})),
      h("div", {class: "action-row"},
        // what the button says, not "toggle": a tap after the timer button on the table
        // (or another host) changed it is refused, instead of undoing what they did
        Touch.act(running ? "Pause" : started ? "Resume" : "Start timer", {type: running ? "pause" : "resume"},
                  send, {tone: Touch.timerWaits(state) ? "primary" : "ghost", id: "timer-toggle", disabled: !timer || spent}),
        Touch.act("+30 s", {type: "add_time", seconds: 30}, send,
                  {tone: "ghost", id: "add-time", disabled: !timer || (!running && opts && opts.addWhilePaused === false)})),
      extra || null);
  },
};

/** The draft of one control (choices made before sending), kept across re-renders while its
 *  key (e.g. "deploy" + the state's version) stays the same. */
function draftFor(key, initial) {
  const store = draftFor.store || (draftFor.store = new Map());
  if (!store.has(key)) {
    if (store.size > 40) store.delete(store.keys().next().value);  // forget the oldest
    store.set(key, initial());
  }
  return store.get(key);
}

/** Choice buttons (and the Teach cards list's, and an action row's) show their whole text, never a broken word:
 *  a group with a word that has no room even at 85% of its size takes fewer columns (one at
 *  most per row), then a text still too wide shrinks, to 70% of its size at most; past that
 *  its word ends in "…" and the button's title holds the whole text (as names do elsewhere). */
function fitChoices(group) {
  const choices = [...group.querySelectorAll("button")];
  group.style.gridTemplateColumns = "";
  for (const el of choices) { el.style.fontSize = ""; uncut(el); }
  if (!group.clientWidth) return;  // in a closed <details>: fitted when it opens
  const cut = (el) => el.scrollWidth > el.clientWidth;
  const cramped = (el) => 0.85 * el.scrollWidth > el.clientWidth;
  let cols = getComputedStyle(group).gridTemplateColumns.split(" ").length;
  while (cols > 1 && choices.some(cramped)) {
    cols -= 1;
    group.style.gridTemplateColumns = "repeat(" + cols + ", minmax(0, 1fr))";
  }
  for (const el of choices.filter(cut)) {
    const size = parseFloat(getComputedStyle(el).fontSize);
    el.style.fontSize = Math.max(0.7, 0.98 * el.clientWidth / el.scrollWidth) * size + "px";
  }
  for (const el of choices.filter(cut)) cutShort(el);
}

/** `el` (a choice or a stepper's label) ends its too-long word in "…"; its title, unless it
 *  has its own, holds the whole text. */
function cutShort(el) {
  el.classList.add("choice-cut");
  if (!el.title) { el.title = el.textContent; el.dataset.cutTitle = "yes"; }
}

function uncut(el) {
  el.classList.remove("choice-cut");
  if (el.dataset.cutTitle) { el.removeAttribute("title"); delete el.dataset.cutTitle; }
}

/** Steppers side by side in `box` (the players' Wars strengths, the final tally): when a
 *  label (a player's name) has no room beside its − value +, every label takes a row of its
 *  own above them (.stacked, alike); a word still too wide shrinks, to 70% at most, then
 *  ends in "…" (the label's title holds the whole name). */
function fitSteppers(box) {
  const steppers = [...box.children].filter((el) => el.matches(".stepper"));
  const labels = steppers.map((el) => el.querySelector(".stepper-label")).filter(Boolean);
  for (const el of steppers) el.classList.remove("stacked");
  for (const label of labels) { label.style.fontSize = ""; uncut(label); }
  const cut = (label) => label.scrollWidth > label.clientWidth;
  if (!labels.some((label) => label.clientWidth && cut(label))) return;
  for (const el of steppers) el.classList.add("stacked");
  for (const label of labels.filter(cut)) {
    const size = parseFloat(getComputedStyle(label).fontSize);
    label.style.fontSize = Math.max(0.7, 0.98 * label.clientWidth / label.scrollWidth) * size + "px";
  }
  for (const label of labels.filter(cut)) cutShort(label);
}

const CHOICE_GROUPS = ".choices, .teach-faces, .stepper, .action-row";

function fitGroup(group) {
  if (!group.matches(".stepper")) fitChoices(group);
  else if (group.parentElement) fitSteppers(group.parentElement);
}

/** Every choice group and stepper in `root` (an element or the document) fitted to its width. */
function fitAllChoices(root) {
  const groups = root.matches && root.matches(CHOICE_GROUPS) ? [root] : [];
  for (const group of [...groups, ...root.querySelectorAll(CHOICE_GROUPS)]) fitGroup(group);
}

/** The host's "more" sections (<details class="touch-more">: Bully or Flat Tire, a Unit to
 *  add, who claims the round) stay open while the controls are drawn again for the same
 *  version of the game (a draft's change, the camera's news, a hand over the table); an
 *  accepted action (a new version) closes them. Known by their place among the sections. */
const MoreOpen = {
  version: null,
  open: new Set(),

  places() { return [...document.querySelectorAll("details.touch-more")]; },

  /** Forget what was open when the game has moved on to another version. */
  sync() {
    const version = typeof Host !== "undefined" && Host.state ? Host.state.version : null;
    if (version !== this.version) { this.version = version; this.open.clear(); }
  },

  remember(details) {
    this.sync();
    const place = this.places().indexOf(details);
    if (place < 0) return;  // drawn again since: the new one is what counts
    if (details.open) this.open.add(place); else this.open.delete(place);
  },

  restore() {
    this.sync();
    this.places().forEach((details, place) => { if (this.open.has(place)) details.open = true; });
  },
};

// Fitted as they are drawn (before the browser paints), when a <details> holding some opens
// and when the screen turns or the window is resized; "more" sections reopened as drawn.
new MutationObserver((changes) => {
  const groups = new Set();
  let more = false;
  for (const change of changes) {
    const around = change.target.closest && change.target.closest(CHOICE_GROUPS);  // a group refilled
    if (around) groups.add(around);
    for (const node of change.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (node.matches(CHOICE_GROUPS)) groups.add(node);
      for (const group of node.querySelectorAll(CHOICE_GROUPS)) groups.add(group);
      more = more || node.matches("details.touch-more") || Boolean(node.querySelector("details.touch-more"));
    }
  }
  if (more) MoreOpen.restore();
  for (const group of groups) fitGroup(group);
}).observe(document.body, {childList: true, subtree: true});
document.addEventListener("toggle", (e) => {
  if (e.target.matches("details.touch-more")) MoreOpen.remember(e.target);
  fitAllChoices(e.target);
}, true);
window.addEventListener("resize", () => fitAllChoices(document));
