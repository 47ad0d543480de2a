/* Paper Toss on the host page: one big button per thing that can happen at this step
 * (toss, pass, a Hazard by a player, a Counter, the Toss cards flipped, the pick), and
 * Bully / Flat Tire at any time.
 */
"use strict";

(function () {
  const TOSS_CARDS = [["good-throw", "Good Throw +1"], ["perfect", "Perfect +2"], ["bad-throw", "Bad Throw 0"],
                      ["window", "Window −1"], ["sprinklers", "Sprinklers"]];
  const HAZARDS = [["dog", "Dog"], ["kid", "Kid"], ["obstacle", "Obstacle"]];
  const COUNTERS = [["food", "Food (Dog)"], ["trick", "Trick (Kid)"], ["remedy", "Remedy (Obstacle)"], ["shortcut", "Shortcut (any)"]];
  const NAMES = Object.fromEntries([...TOSS_CARDS, ...HAZARDS, ...COUNTERS]);
  /** What the table waits for at each step, in the table's words. */
  const STEPS = {turn: "Toss or pass", hazards: "Hazards may be played, or flip the Toss card",
                 counter: "A Hazard waits for a Counter", flip: "Flip two Toss cards",
                 pick: "Pick one of the two Toss cards", sprinklers: "Sprinklers: a second card discarded?"};

  function render(state, send) {
    const root = h("div", {class: "paper-toss-host"});
    const redraw = () => fill(root, body(state, send, redraw));
    redraw();
    return root;
  }

  function flipPicker(state, send, redraw, count) {
    const draft = draftFor("flip" + state.version, () => ({cards: []}));
    const pick = (card) => {
      if (count === 1) { send({type: "flip", cards: [card]}); return; }
      draft.cards = draft.cards.length >= 2 ? [card] : [...draft.cards, card];
      redraw();
    };
    return Touch.section(count === 1 ? "Flip the Toss card" : "Flip two Toss cards",
      Touch.choices(TOSS_CARDS, pick, {label: "Toss card", cols: 2}),
      count === 2 ? h("p", {class: "hint", text: draft.cards.length ? "Flipped: " + draft.cards.map((c) => NAMES[c]).join(" + ") : "Tap the two cards"}) : null,
      count === 2 ? Touch.act("Record both cards", () => ({type: "flip", cards: draft.cards}), send,
                              {id: "flip-two", disabled: draft.cards.length !== 2}) : null);
  }

  function hazardPicker(state, send, redraw) {
    const draft = draftFor("hz" + state.version, () => ({player: null}));
    const tosser = state.current;
    return Touch.section("A Hazard on the tosser?",
      Touch.players(state, (seat) => { draft.player = seat; redraw(); }, {selected: draft.player, skip: (s) => s === tosser || state.players[s].left}),
      Touch.choices(HAZARDS.map(([v, t]) => [v, t, {disabled: draft.player === null}]), (card) => send({type: "hazard", player: state.players[draft.player].name, card}),
                    {label: "Hazard card", cols: 3}),
      draft.player === null ? h("p", {class: "hint", text: "Tap who plays it, then the card"}) : null);
  }

  function targetPicker(state, send, redraw, kind) {
    const draft = draftFor(kind + state.version, () => ({}));
    return h("div", {class: "touch-sub"},
      Touch.players(state, (seat) => send({type: kind, target: state.players[seat].name}), {label: kind, skip: (s) => state.players[s].left}));
  }

  function body(state, send, redraw) {
    const t = state.toss;
    const who = state.players[state.current].name;
    const parts = [h("div", {class: "turn-head"},
      h("p", {class: "turn-who", text: (t ? t.tosser : who) + (t ? " is tossing" : " to act")}),
      h("p", {class: "turn-meta", text: STEPS[state.step] || state.step})),
      Touch.cameraCards(state, describe, (id) => NAMES[id] || id.replace(/-/g, " "))];
    if (state.step === "turn") {
      parts.push(h("div", {class: "action-row"},
        Touch.act("Toss", {type: "toss"}, send, {id: "toss"}),
        Touch.act("Pass", {type: "pass"}, send, {tone: "ghost", id: "pass"})));
    } else if (state.step === "hazards") {
      parts.push(flipPicker(state, send, redraw, 1), hazardPicker(state, send, redraw),
                 Touch.act("Energy Drink: two cards, tosser picks", {type: "energy-drink"}, send, {tone: "ghost"}));
    } else if (state.step === "counter") {
      parts.push(Touch.section("Counter " + t.waiting_hazard.player + "'s " + NAMES[t.waiting_hazard.card] + "?",
        Touch.choices(COUNTERS, (card) => send({type: "counter", card}), {label: "Counter", cols: 2}),
        Touch.act("No counter", {type: "no-counter"}, send, {tone: "ghost", id: "no-counter"})));
    } else if (state.step === "flip") {
      parts.push(flipPicker(state, send, redraw, 2));
    } else if (state.step === "pick") {
      parts.push(Touch.section((t.chooser || t.tosser) + " picks",
        Touch.choices(t.flipped.map((c) => [c, NAMES[c]]), (card) => send({type: "pick", card}), {label: "Pick", cols: 2})));
    } else if (state.step === "sprinklers") {
      parts.push(Touch.section("Did " + t.tosser + " discard a second Paper Toss card?",
        h("div", {class: "action-row"},
          Touch.act("Yes: +1", {type: "sprinklers", discard: true}, send),
          Touch.act("No", {type: "sprinklers", discard: false}, send, {tone: "ghost"}))));
    }
    parts.push(h("details", {class: "touch-more"}, h("summary", {text: "Bully or Flat Tire"}),
      Touch.section("Bully: take a token from…", targetPicker(state, send, redraw, "bully")),
      Touch.section("Flat Tire: skip the next turn of…", targetPicker(state, send, redraw, "flat-tire"))));
    const staying = state.players.filter((p) => !p.left).length;
    if (state.step === "turn" && staying > 2) {  // between tosses; two players must stay
      parts.push(h("details", {class: "touch-more", id: "leave-picker"}, h("summary", {text: "A player leaves the table"}),
        Touch.section("Who leaves? Their tokens stay; nothing more is played by or on them.",
          Touch.players(state, (seat) => send({type: "leave", player: state.players[seat].name}),
                        {label: "Who leaves", skip: (s) => state.players[s].left}))));
    }
    return parts;
  }

  function describe(a) {
    const by = Host.state && Host.state.players[a.turn] ? Host.state.players[a.turn].name : null;  // whose turn it was
    switch (a.type) {
      case "toss": return by ? by + " tosses" : "Toss";
      case "pass": return by ? by + " passes" : "Pass";
      case "hazard": return "Hazard: " + playerName(a.player) + " plays " + (NAMES[a.card] || a.card);
      case "counter": return "Counter: " + (NAMES[a.card] || a.card);
      case "flip": return "Flip: " + a.cards.map((c) => NAMES[c] || c).join(" + ");
      case "pick": return "Pick: " + (NAMES[a.card] || a.card);
      case "bully": return "Bully on " + playerName(a.target);
      case "flat-tire": return "Flat Tire on " + playerName(a.target);
      case "leave": return playerName(a.player) + " leaves the table";
      case "sprinklers": return a.discard ? "Sprinklers: a second card discarded, +1" : "Sprinklers: no discard";
      default: return describeAction(a);
    }
  }

  HostControls["paper-toss"] = {render, describe};
})();
