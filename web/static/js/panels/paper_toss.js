/* Paper Toss on the scoreboard: whose toss, the toss in progress (Hazards and Counters, the
 * chooser, the Toss cards flipped), the last toss, tokens toward the target, skipped turns.
 * State fields: players [{name, tokens, skips}], current, step, target, toss, last_toss,
 * turn_number, history, events; the live extras camera, hand and cards (what the camera reads).
 */
"use strict";

(function () {
  const CARD = {"good-throw": "Good Throw", perfect: "Perfect", "bad-throw": "Bad Throw", window: "Window",
                sprinklers: "Sprinklers", dog: "Dog", kid: "Kid", obstacle: "Obstacle", food: "Food",
                trick: "Trick", remedy: "Remedy", shortcut: "Shortcut"};
  const name = (id) => CARD[id] || id;
  const STEP = {
    turn: (t, who) => who + " tosses or passes",
    hazards: (t) => "Hazards? Anyone may play one on " + t.tosser + " — or flip the Toss card",
    counter: (t) => t.tosser + " answers " + t.waiting_hazard.player + "'s " + name(t.waiting_hazard.card),
    flip: (t) => (t.chooser || t.tosser) + " flips two Toss cards",
    pick: (t) => (t.chooser || t.tosser) + " picks the Toss card " + t.tosser + " gets",
    sprinklers: (t) => "Sprinklers: did " + t.tosser + " discard a second Paper Toss card?",
  };

  function tossView(toss, title) {
    const empty = !toss.hazards.length && !toss.flipped.length && !toss.energy_drink && !toss.chooser
      && (toss.change === null || toss.change === undefined);
    if (empty) return null;
    return h("div", {class: "toss"},
      h("p", {class: "label", text: title}),
      toss.hazards.length ? h("ul", {class: "hazards"}, toss.hazards.map((hz) =>
        h("li", {class: hz.counter ? "countered" : "standing"},
          h("span", {text: hz.player + "'s " + name(hz.card)}),
          h("span", {class: "hz-answer", text: hz.counter ? name(hz.counter) + " counters it" : "stands"})))) : null,
      toss.energy_drink ? h("p", {class: "tag", text: "Energy Drink: " + toss.tosser + " picks of two"}) : null,
      toss.chooser ? h("p", {class: "tag", text: "Chooser: " + toss.chooser}) : null,
      toss.flipped.length ? h("div", {class: "cards"}, toss.flipped.map((c) =>
        h("span", {class: "card-face " + c + (toss.result === c ? " picked" : ""), text: name(c)}))) : null,
      toss.change !== null && toss.change !== undefined
        ? h("p", {class: "toss-change " + (toss.change > 0 ? "up" : toss.change < 0 ? "down" : ""),
                  text: (toss.change > 0 ? "+" : "") + toss.change + (Math.abs(toss.change) === 1 ? " token" : " tokens")}) : null);
  }

  function render(state) {
    const parts = [];
    const current = state.current === null ? null : state.players[state.current];
    if (!state.over && current) {
      const step = STEP[state.step];
      parts.push(h("section", {class: "now"},
        h("p", {class: "label", text: "Turn " + state.turn_number + " · tossing"}),
        h("p", {class: "now-name", id: "now-name", text: state.toss ? state.toss.tosser : current.name}),
        h("p", {class: "step-text", id: "step-text", text: step ? step(state.toss || {}, current.name) : state.step}),
        state.toss ? tossView(state.toss, "This toss") : null));
    }
    parts.push(cardsSaw(state, name, (a) => "flip " + a.cards.map(name).join(" + ")));
    if (state.last_toss) parts.push(h("section", {class: "last-roll"}, tossView(state.last_toss, "Last toss · " + state.last_toss.tosser)));
    parts.push(h("section", {class: "table"},
      h("p", {class: "label", text: "Paper Tokens · first to " + state.target + " wins"}),
      playerList(state, (p) => [
        h("span", {class: "progress", "aria-hidden": "true"},
          h("span", {class: "progress-fill", style: {width: Math.min(100, 100 * p.tokens / state.target) + "%"}})),
        p.skips ? h("span", {class: "pending warn", text: "skips " + p.skips}) : null])));
    parts.push(scoreChart(state, "turn"));
    return h("div", {class: "panel paper-toss"}, parts);
  }

  function cue(event) {
    switch (event.kind) {
      case "hazard": return {text: event.player + " plays " + name(event.card) + " on " + event.tosser + "!", tone: "warn", sound: "warn"};
      case "counter": return {text: name(event.card) + " counters it!", tone: "good", sound: "good"};
      case "hazard-stands": return {text: "The Hazard stands", tone: "bad", sound: "bad"};
      case "tokens": return {text: event.player + (event.change >= 0 ? " +" : " ") + event.change + " → " + event.tokens, tone: event.change > 0 ? "good" : "bad", sound: event.change > 0 ? "good" : "bad"};
      case "flat-tire": return {text: "Flat Tire for " + event.player + "!", tone: "bad", sound: "bad"};
      case "bully": return {text: "Bully on " + event.player + "!", tone: "bad", sound: "bad"};
      case "game-over": return {text: "Game over!", tone: "good", sound: "win"};
      default: return null;
    }
  }

  Panels["paper-toss"] = {render, cue};
})();
