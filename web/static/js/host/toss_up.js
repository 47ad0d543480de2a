/* Toss Up! on the host page: tap the counts of green, yellow and red dice (the total is
 * checked against the dice in hand as you tap), record the roll, or bank.
 */
"use strict";

(function () {
  const COLOURS = ["green", "yellow", "red"];
  const counts = {green: 0, yellow: 0, red: 0};
  let turnKey = null;

  function reset() { for (const c of COLOURS) counts[c] = 0; }

  function render(state, send) {
    const turn = state.turn;
    const key = state.current + "/" + turn.number + "/" + turn.rolls;  // a new roll: count afresh
    if (key !== turnKey) { reset(); turnKey = key; }
    const root = h("div", {class: "toss-up-host"});
    const redraw = () => fill(root, ...body(state, send, redraw));
    redraw();
    return root;
  }

  function body(state, send, redraw) {
    const turn = state.turn;
    const inHand = turn.dice_in_hand;
    const counted = counts.green + counts.yellow + counts.red;
    const who = state.players[state.current].name;
    const rows = COLOURS.map((c) => h("div", {class: "stepper " + c, dataset: {colour: c}},
      h("span", {class: "stepper-label", text: c}),
      h("button", {type: "button", class: "step minus", "aria-label": "One " + c + " fewer", text: "−",
                   disabled: counts[c] === 0, onclick: () => { counts[c] -= 1; redraw(); }}),
      h("output", {class: "step-count", id: "count-" + c, text: counts[c]}),
      h("button", {type: "button", class: "step plus", "aria-label": "One more " + c, text: "+",
                   disabled: counted >= inHand, onclick: () => { counts[c] += 1; redraw(); }})));
    let check;
    if (counted === inHand) check = ["ok", "All " + inHand + " dice counted"];
    // one line on a phone, like "All 10 dice counted": Record roll and Bank stay put as the host taps
    else if (counted < inHand) check = ["todo", counted + " of " + inHand + " counted, " + (inHand - counted) + " to go"];
    else check = ["bad", counted + " counted, but only " + inHand + " dice in hand"];
    const sendRoll = async (action) => {
      const ok = await send(action);
      if (ok) reset();
      return ok;
    };
    return [
      h("div", {class: "turn-head"},
        h("p", {class: "turn-who", text: who + " rolls"}),
        h("p", {class: "turn-meta", text: turn.points + " points this turn · " + inHand + " dice in hand"})),
      h("div", {class: "steppers"}, rows),
      h("p", {class: "dice-check " + check[0], id: "dice-check", role: "status", text: check[1]}),
      h("div", {class: "action-row"},
        // Touch.act: the button is disabled while its request is on its way (no double roll)
        Touch.act("Record roll", () => ({type: "roll", green: counts.green, yellow: counts.yellow, red: counts.red}),
                  sendRoll, {id: "record-roll", disabled: counted !== inHand}),
        Touch.act("Bank " + turn.points + (turn.points === 1 ? " point" : " points"), {type: "bank"}, send,
                  {id: "bank", tone: "good", disabled: turn.rolls === 0})),
      cameraCard(state),
      leavePicker(state, send),
    ];
  }

  /** A player leaves the table: their seat is skipped from then on (two must stay). */
  function leavePicker(state, send) {
    const staying = state.players.filter((p) => !p.left).length;
    if (staying <= 2) return null;
    return h("details", {class: "touch-more", id: "leave-picker"}, h("summary", {text: "A player leaves the table"}),
      Touch.section("Who leaves? Their total stays; they get no more turns and cannot win.",
        Touch.players(state, (seat) => send({type: "leave", player: seat}),
                      {label: "Who leaves", skip: (seat) => state.players[seat].left})));
  }

  /** What the camera saw and its offer as one tap. */
  function cameraCard(state) {
    if (!state.camera && !state.dice) return null;
    const dice = state.dice || {};
    const offer = dice.offer;
    const seen = dice.seen;
    const camera = state.camera;
    return Touch.section("Camera" + (camera ? (camera.online ? " · watching" : " · offline") : ""),
      camera && !camera.online && camera.status ? h("p", {class: "hint", text: camera.status}) : null,
      state.hand ? h("p", {class: "hint", id: "hand-in-view", text: "A hand is over the table: the camera reads the dice once it has gone."}) : null,
      seen ? h("p", {class: "hint", text: (camera && !camera.online ? "Last saw " : "Sees ") + seen.green + " green · " + seen.yellow + " yellow · " + seen.red + " red"
                                          + (seen.other ? " · " + seen.other + " other" : "")}) : null,
      dice.message ? h("p", {class: "hint", text: dice.message}) : null,
      seen && !offer && !dice.message && !state.hand && !state.over
        ? h("p", {class: "hint", id: "camera-waiting", text: "Waiting for the next roll to settle."}) : null,
      offer ? h("button", {type: "button", class: "btn good big", id: "confirm-camera",
                           text: "Confirm: " + offer.green + " green · " + offer.yellow + " yellow · " + offer.red + " red",
                           onclick: () => Host.post("/api/camera/confirm", {offer})}) : null,
      camera && !camera.online ? null : h("p", {class: "hint", id: "camera-live", text: "The live picture is in Camera preview below."}));
  }

  function describe(action) {
    const players = Host.state ? Host.state.players : [];
    const who = players[action.turn] ? players[action.turn].name + " " : "";
    if (action.type === "roll") return (who ? who + "rolls " : "Roll: ") + action.green + " green · " + action.yellow + " yellow · " + action.red + " red"
                                       + (action.green === 0 && action.red > 0 ? ": red light" : "");
    if (action.type === "bank") {  // the session notes the points a bank banked
      const points = typeof action.points === "number" ? " " + action.points + (action.points === 1 ? " point" : " points") : "";
      return (who ? who + "banks" : "Bank") + points;
    }
    if (action.type === "leave") {
      const gone = typeof action.player === "number" ? (players[action.player] || {}).name : action.player;
      return (gone || "A player") + " leaves the table";
    }
    return describeAction(action);
  }

  HostControls["toss-up"] = {render, describe};
})();
