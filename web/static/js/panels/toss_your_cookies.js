/* Toss Your Cookies on the scoreboard: the roller, what the roll makes the table do, the
 * countdown to "Toss!" (called out by every phone at the same moment) and the scramble
 * timer, the round tally and the setup helper.
 * State fields: players [{name, score}], current, phase, roller, round, rounds,
 * wins_needed, last_roll {text, ...}, timer, calls, setup, history.
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

  function render(state) {
    const parts = [];
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
        state.last_roll ? h("p", {class: "roll-text", id: "roll-text", text: state.last_roll.text}) : null));
    }
    parts.push(h("section", {class: "table"},
      h("p", {class: "label", text: "Rounds won · " + state.wins_needed + " wins the game"}), tally(state)));
    parts.push(scoreChart(state, "round"));
    const setup = state.setup;
    if (setup && state.round === 1 && !state.history.length) {
      parts.push(h("details", {class: "card setup"},
        h("summary", {}, h("span", {class: "label", text: "Setup"})),
        h("p", {text: "Cookies in play: " + setup.cookies.map((c) => c.name).join(", ") + "."}),
        h("p", {text: setup.sets + " sets of " + setup.per_set + ", " + setup.wild + " wild, " + setup.half_eaten
                      + " half-eaten and the milk: " + setup.cards + " cards, deal " + setup.deal + " each."})));
    }
    return h("div", {class: "panel toss-your-cookies"}, parts);
  }

  function cue(event) {
    switch (event.kind) {
      case "roll": return {text: event.player + " rolled " + (event.action || "Toss").replace("-", " ") + (event.number ? " " + event.number : ""), tone: "info", sound: "tick"};
      case "toss": return {text: "Toss! Grab the cards!", tone: "good"};
      case "scramble-over": return {text: "Time! Dice go left", tone: "warn", sound: "timer-end"};
      case "snickerdoodle": return {text: "Snickerdoodle! " + event.player + " wins the round", tone: "good", sound: "good"};
      case "game-over": return {text: "Game over!", tone: "good", sound: "win"};
      default: return null;
    }
  }

  Panels["toss-your-cookies"] = {render, cue};
})();
