/* Big touch targets for the host page: choice grids, player pickers, steppers, action
 * buttons. Each game's host controls (static/js/host/<game>.js) are built from these.
 */
"use strict";

const Touch = {
  /** A big button that sends `action` (a dict, or a function returning one). */
  act(text, action, send, opts) {
    const o = opts || {};
    return h("button", {type: "button", class: "btn big " + (o.tone || "primary"), id: o.id, disabled: o.disabled,
                        "aria-label": o.label, text,
                        onclick: async (e) => {
                          const body = typeof action === "function" ? action() : action;
                          if (!body) return;
                          const button = e.currentTarget;
                          button.disabled = true;
                          if (!(await send(body))) button.disabled = false;
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
      h("p", {class: "hint", id: "camera-cards",
              text: seen.length ? (offline ? "Last saw: " : "Sees: ") + seen.map(name).join(" · ") : "No known card in view."}),
      cards.unsure && cards.unsure.length ? h("p", {class: "hint", id: "camera-unsure", text: unsureText(cards.unsure, name)}) : null,
      cards.message ? h("p", {class: "hint", text: cards.message}) : null,
      cards.offer ? h("button", {type: "button", class: "btn good big", id: "confirm-camera",
                                 text: "Confirm: " + describe({...cards.offer, turn: state.current}),
                                 onclick: () => Host.post("/api/camera/confirm")}) : null);
  },

  /** A titled block of the host controls. */
  section(title, ...children) {
    return h("section", {class: "touch-section"}, title ? h("h3", {class: "touch-title", text: title}) : null, children);
  },

  /** Pause/resume, +seconds and the extra buttons for a game's running timer.
   *  `opts.addWhilePaused: false` for a game that adds time only to a running timer. */
  timerBar(state, send, extra, opts) {
    const timer = state.timer;
    const running = Boolean(timer && timer.running);
    const started = timer && !running && typeof timer.remaining_at_pause === "number" && timer.remaining_at_pause < timer.duration;
    return h("div", {class: "timer-bar"},
      h("div", {class: "timer-big"}, timerView(timer, "host-clock") || h("span", {class: "clock paused", text: "no timer"})),
      h("div", {class: "action-row"},
        Touch.act(running ? "Pause" : started ? "Resume" : "Start timer", {type: "toggle"}, send,
                  {tone: "ghost", id: "timer-toggle"}),
        Touch.act("+30 s", {type: "add_time", seconds: 30}, send,
                  {tone: "ghost", id: "add-time", disabled: !running && opts && opts.addWhilePaused === false})),
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
