/* Toss Your Cookies on the host page: the roll as two taps (what the dice say, how many),
 * a virtual roll, the Toss button, the countdown and scramble timer controls, and
 * "Snickerdoodle!" for the player who claims the round.
 * With a camera, tapping the claimant opens the claim ({type: "claim"}; the timer waits):
 * the claimant lays the hand face up under the camera, the camera's verdict
 * (state.cards.message) appears, and a winning hand is confirmed with one tap
 * (POST /api/camera/confirm). The host may also check the hand in view as it is, let
 * the table vouch, or withdraw a false alarm.
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
      Touch.choices(NUMBERS, (n) => { draft.number = n; redraw(); }, {selected: draft.number, cols: 3, label: "Number die"}),
      Touch.act("Record roll", () => ({type: "roll", action: draft.action, number: draft.number}), send,
                {id: "record-roll", disabled: draft.action === null || draft.number === null}),
      h("div", {class: "action-row"},
        Touch.act("Virtual roll", {type: "roll"}, send, {tone: "ghost", id: "virtual-roll"}),
        Touch.act("Toss now", {type: "toss"}, send, {tone: "ghost", id: "toss-now"})));
  }

  const cardName = CookieCards.name;
  const handText = CookieCards.hand;

  function claim(state, send) {
    const camera = Boolean(state.camera || state.cards);
    const pick = (seat) => send(camera ? {type: "claim", player: seat} : {type: "snickerdoodle", player: seat});
    return h("details", {class: "touch-more", id: "claim-picker"}, h("summary", {text: "Snickerdoodle! Who claims the round?"}),
      camera ? h("p", {class: "hint", text: "Tap who shouted; they lay their hand face up under the camera."}) : null,
      Touch.players(state, pick, {label: "Snickerdoodle"}));
  }

  /** The open claim: what the camera sees of the hand, its verdict, and the ways to settle. */
  function openClaim(state, send) {
    const cards = state.cards || {};
    const seen = cards.seen || [];  // card ids of this game's taught deck
    const offer = cards.offer && cards.offer.type === "snickerdoodle" ? cards.offer : null;
    const who = state.claim.name;
    return Touch.section("Snickerdoodle! " + who + " shows the hand",
      state.claim.paused ? h("p", {class: "hint", text: "The timer waits until the claim is settled."}) : null,
      h("p", {class: "hint", id: "claim-seen", text: seen.length ? "The camera sees: " + handText(state, seen) : "Lay the hand face up under the camera."}),
      cards.unsure && cards.unsure.length ? h("p", {class: "hint", id: "camera-unsure", text: unsureText(cards.unsure, (id) => cardName(state, id))}) : null,
      cards.message ? h("p", {class: "dice-check", id: "claim-verdict", role: "status", text: cards.message}) : null,
      offer ? h("button", {type: "button", class: "btn good big", id: "confirm-camera",
                           text: "Confirm: " + who + " wins the round",
                           onclick: () => Host.post("/api/camera/confirm", {offer})}) : null,
      h("div", {class: "action-row"},
        !offer && seen.length ? Touch.act("Check this hand", {type: "snickerdoodle", player: state.claim.player, hand: seen}, send,
                                          {tone: "ghost", id: "check-hand"}) : null,
        Touch.act("The table vouches", {type: "snickerdoodle", player: state.claim.player}, send, {tone: "ghost", id: "vouch"}),
        Touch.act("False alarm", {type: "withdraw"}, send, {tone: "ghost", id: "withdraw"})));
  }

  function body(state, send, redraw) {
    const roller = state.players[state.roller];
    const parts = [h("div", {class: "turn-head"},
      h("p", {class: "turn-who", text: state.claim ? state.claim.name + " claims" : state.phase === "roll" ? roller.name + " rolls" : state.phase === "countdown" ? "Countdown" : "Scramble"}),
      h("p", {class: "turn-meta", text: "Round " + state.round + " of " + state.rounds}))];
    if (state.claim) return parts.concat(openClaim(state, send));
    if (state.phase === "roll") parts.push(rollPicker(state, send, redraw));
    else parts.push(Touch.timerBar(state, send, Touch.act(state.phase === "countdown" ? "Toss! now" : "End the scramble",
                                                           {type: "skip", phase: state.phase}, send, {tone: "ghost", id: "skip"}),
                                   {addWhilePaused: false}));  // the rules add time to a running timer only
    parts.push(claim(state, send));
    return parts;
  }

  function describe(a) {
    const by = Host.state && Host.state.players[a.turn] ? playerName(a.turn) + " rolls" : "Roll";  // turn: the roller's seat
    const said = (pairs, value) => Object.fromEntries(pairs)[value] || value;  // "pass-left" -> "Pass left"
    if (a.type === "roll") return a.action ? by + ": " + said(ACTIONS, a.action) + " " + said(NUMBERS, a.number) + (a.virtual ? " (virtual)" : "") : by;
    if (a.type === "snickerdoodle") return "Snickerdoodle! " + playerName(a.player) + (a.hand ? " (hand checked)" : "");
    if (a.type === "claim") return "Snickerdoodle? " + playerName(a.player) + " shows the hand";
    if (a.type === "withdraw") return "Claim withdrawn";
    return describeAction(a);
  }

  HostControls["toss-your-cookies"] = {render, describe};
})();
