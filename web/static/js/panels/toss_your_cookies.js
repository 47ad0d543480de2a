/* Toss Your Cookies on the scoreboard: the roller, what the roll makes the table do, the
 * countdown to "Toss!" (called out by every phone at the same moment) and the scramble
 * timer, the round tally and the setup helper.
 * State fields: players [{name, score}], current, phase, roller, round, rounds,
 * wins_needed, last_roll {text, ...}, timer, calls, setup, history, claim {player, name,
 * paused} (a Snickerdoodle! being checked), last_claim {name, round, checked, text}; the
 * live extras `camera` and `cards` {seen, unsure, offer, message}: what the camera makes of
 * the hand shown.
 */
"use strict";

(function () {
  const PHASE = {roll: "Roll the dice", countdown: "Get ready…", scramble: "Grab!"};

  function tally(state) {
    return playerList(state, (p) => {
      const dots = [];
      for (let i = 0; i < state.wins_needed; i++) dots.push(h("span", {class: "pawn" + (i < p.score ? " home" : "")}));
      return h("span", {class: "pawns", "aria-label": p.score + " rounds won"}, dots);
    });
  }

  const cardName = CookieCards.name;
  const handText = CookieCards.hand;

  /** The open claim: who shows the hand, what the camera sees of it, and its verdict. */
  function claimView(state) {
    const cards = state.cards || {};
    const seen = cards.seen || [];
    const unsure = cards.unsure || [];
    const camera = Boolean(state.camera || state.cards);
    return h("section", {class: "now cookies-claim", id: "claim"},
      h("p", {class: "label", text: "Snickerdoodle!" + (state.claim.paused ? " · timer paused" : "")}),
      h("p", {class: "now-name", text: state.claim.name}),
      h("p", {class: "step-text", text: "shows the hand"}),
      camera ? h("p", {class: "hint", id: "claim-seen", text: seen.length ? "The camera sees: " + handText(state, seen)
        : state.camera && !state.camera.online ? "The camera is offline: the table checks the hand." : "Waiting for the hand, face up under the camera."}) : null,
      unsure.length ? h("p", {class: "hint", id: "camera-unsure", text: unsureText(unsure, (id) => cardName(state, id))}) : null,
      cards.message ? h("p", {class: "roll-text", id: "claim-verdict", text: cardsMessage(cards)}) : null,
      cards.offer ? h("p", {class: "offer", text: "Waiting for the host to confirm"}) : null);
  }

  function lastClaim(state) {
    const last = state.last_claim;
    if (!last) return null;
    return h("p", {class: "hint", id: "last-claim",
                   text: "Round " + last.round + ": " + last.name + " — " + (last.text || "the table vouched") + (last.checked ? " (checked)" : "")});
  }

  /** What the last roll makes the table do; before the next roll, whose roll it was (a Toss
   *  whose scramble is over is no longer what to do now). */
  function rollSaid(state, timed) {
    const by = state.players[state.last_roll.by];
    return (timed || !by ? "" : by.name + " rolled · ") + state.last_roll.text;
  }

  function render(state) {
    const parts = [];
    if (state.claim && !state.over) parts.push(claimView(state));
    if (!state.over) {
      const roller = state.players[state.roller];
      const timed = state.phase !== "roll";
      parts.push(h("section", {class: "now cookies-now phase-" + state.phase},
        h("p", {class: "label", text: "Round " + state.round + " of " + state.rounds + " · " + PHASE[state.phase]}),
        timed ? h("div", {class: "countdown-box"},
                  timerView(state.timer, "countdown") || h("span", {class: "clock paused", text: "∞"}),
                  h("p", {class: "step-text", text: state.phase === "countdown" ? "One, two, three, Toss!" : "Scramble for the cards"}))
              : h("p", {class: "now-name", id: "now-name", text: roller ? roller.name : ""}),
        !timed ? h("p", {class: "step-text", text: "rolls the dice"}) : null,
        state.last_roll ? h("p", {class: "roll-text", id: "roll-text", text: rollSaid(state, timed)}) : null));
    }
    parts.push(h("section", {class: "table"},
      h("p", {class: "label", text: "Rounds won · " + state.wins_needed + " wins the game"}), tally(state), lastClaim(state)));
    parts.push(scoreChart(state, "round"));
    const setup = state.setup;
    if (setup && state.round === 1 && !state.history.length) {
      // open on a TV: nobody taps a TV to unfold it, and the table sets up from it
      parts.push(h("details", {class: "card setup", open: document.documentElement.classList.contains("tv")},
        h("summary", {}, h("span", {class: "label", text: "Setup"})),
        h("p", {text: "Cookies in play: " + setup.cookies.map((c) => c.name).join(", ") + "."}),
        h("p", {text: setup.sets + " sets of " + setup.per_set + ", " + setup.wild + " wild, " + setup.half_eaten
                      + " half-eaten and the milk: " + setup.cards + " cards, deal " + setup.deal + " each."})));
    }
    return h("div", {class: "panel toss-your-cookies"}, parts);
  }

  /** "Toss!" on this phone if its own countdown did not call it: the server's scramble
   *  state can arrive a few ms before the phone's "Toss!" timer fires, and Calls.sync then
   *  cancels that timer; after the host's "Toss! now" (skip) no timer was due at all.
   *  Not when a Toss! call is still scheduled or was just shown, nor for a late state. */
  function callTossIfMissed(event) {
    const pending = [...Calls.timers.keys()].some((key) => key.startsWith("Toss!@"));
    const shown = document.getElementById("callout");
    const called = shown && shown.classList.contains("go");
    if (!pending && !called && Math.abs(Clock.now() - event.at) < 0.4) Calls.call("Toss!");
  }

  const DIE = {swap: "Swap", "pass-left": "Pass left", "pass-right": "Pass right", toss: "Toss", all: "All", milk: "Milk"};

  /** The two dice as the table says them: "Swap · Milk", "Pass left · 2", "Toss". */
  function rollWords(event) {
    const action = DIE[event.action] || event.action || "Toss";
    return event.number === null || event.number === undefined ? action : action + " · " + (DIE[event.number] || event.number);
  }

  function cue(event) {
    switch (event.kind) {
      case "roll": return {text: event.player + " rolled " + rollWords(event), tone: "info", sound: "tick"};
      case "toss": callTossIfMissed(event); return {text: "Toss! Grab the cards!", tone: "good"};
      case "scramble-over": return {text: "Time! Dice go left", tone: "warn", sound: "timer-end"};
      case "claim": return {text: "Snickerdoodle? " + event.player + " shows the hand", tone: "info", sound: "tick"};
      case "withdraw": return {text: "False alarm: play on", tone: "warn"};
      case "snickerdoodle": return {text: "Snickerdoodle! " + event.player + " wins the round", tone: "good", sound: "good"};
      case "game-over": return {text: "Game over!", tone: "good", sound: "win"};
      default: return null;
    }
  }

  Panels["toss-your-cookies"] = {render, cue};
})();
