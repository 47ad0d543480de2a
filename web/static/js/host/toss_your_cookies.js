/* Toss Your Cookies on the host page: the roll as two taps (what the dice say, how many),
 * a virtual roll, the Toss button, the countdown and scramble timer controls, and
 * "Snickerdoodle!" for the player who claims the round.
 */
"use strict";

(function () {
  const ACTIONS = [["swap", "Swap"], ["pass-left", "Pass left"], ["pass-right", "Pass right"], ["toss", "Toss"]];
  const NUMBERS = [[1, "1"], [2, "2"], [3, "3"], ["all", "All"], ["milk", "Milk"]];

  function render(state, send) {
    const root = h("div", {class: "cookies-host"});
    const redraw = () => fill(root, body(state, send, redraw));
    redraw();
    return root;
  }

  function rollPicker(state, send, redraw) {
    const draft = draftFor("roll" + state.version, () => ({action: null, number: null}));
    return Touch.section("The dice say",
      Touch.choices(ACTIONS, (a) => { draft.action = a; redraw(); }, {selected: draft.action, cols: 2, label: "Action die"}),
      Touch.choices(NUMBERS, (n) => { draft.number = n; redraw(); }, {selected: draft.number, cols: 5, label: "Number die"}),
      Touch.act("Record roll", () => ({type: "roll", action: draft.action, number: draft.number}), send,
                {id: "record-roll", disabled: draft.action === null || draft.number === null}),
      h("div", {class: "action-row"},
        Touch.act("Virtual roll", {type: "roll"}, send, {tone: "ghost", id: "virtual-roll"}),
        Touch.act("Toss now", {type: "toss"}, send, {tone: "ghost", id: "toss-now"})));
  }

  function claim(state, send) {
    return h("details", {class: "touch-more"}, h("summary", {text: "Snickerdoodle! Who claims the round?"}),
      Touch.players(state, (seat) => send({type: "snickerdoodle", player: seat}), {label: "Snickerdoodle"}));
  }

  function body(state, send, redraw) {
    const roller = state.players[state.roller];
    const parts = [h("div", {class: "turn-head"},
      h("p", {class: "turn-who", text: state.phase === "roll" ? roller.name + " rolls" : state.phase === "countdown" ? "Countdown" : "Scramble"}),
      h("p", {class: "turn-meta", text: "Round " + state.round + " of " + state.rounds}))];
    if (state.phase === "roll") parts.push(rollPicker(state, send, redraw));
    else parts.push(Touch.timerBar(state, send, Touch.act(state.phase === "countdown" ? "Toss! now" : "End the scramble",
                                                           {type: "skip"}, send, {tone: "ghost", id: "skip"})));
    parts.push(claim(state, send));
    return parts;
  }

  function describe(a) {
    if (a.type === "roll") return a.action ? "Roll: " + a.action + " " + a.number + (a.virtual ? " (virtual)" : "") : "Roll";
    if (a.type === "snickerdoodle") return "Snickerdoodle! seat " + (a.player + 1);
    return describeAction(a);
  }

  HostControls["toss-your-cookies"] = {render, describe};
})();
