/* Toss Up! on the scoreboard: whose turn, turn points, dice in hand, last roll, red-light
 * odds, final round. State fields used: players, current, target, turn {points,
 * dice_in_hand, rolls, number}, last_roll {green, yellow, red, by} | null, final_round,
 * final_turns, odds {red_light, ...}, events.
 */
"use strict";

(function () {
  const DICE = 10;

  function percent(p) {
    const v = p * 100;
    if (v > 0 && v < 0.1) return "<0.1%";
    return (v >= 10 ? v.toFixed(0) : v.toFixed(1)) + "%";
  }

  function diceInHand(n) {
    const dice = [];
    for (let i = 0; i < DICE; i++) dice.push(h("span", {class: "die" + (i < n ? " in" : " out")}));
    return h("div", {class: "dice-row", "aria-label": n + " dice in hand"}, dice);
  }

  function lastRoll(roll) {
    if (!roll) return h("p", {class: "roll-none", text: "No roll yet this game"});
    return h("div", {class: "roll", "aria-label": "Last roll"},
      ["green", "yellow", "red"].map((c) => h("span", {class: "chip " + c},
        h("span", {class: "chip-n", text: roll[c]}), h("span", {class: "chip-c", text: c}))));
  }

  /** "Ann's last roll": whose it was, even once the dice have passed on (`last_roll.by`). */
  function rollTitle(state) {
    const roll = state.last_roll;
    const by = roll && typeof roll.by === "number" ? state.players[roll.by] : null;
    return by ? by.name + "'s last roll" : "Last roll";
  }

  function oddsMeter(state) {
    const risk = state.odds ? state.odds.red_light : 0;
    const width = Math.max(2, Math.min(100, risk * 100));
    const tone = risk >= 0.2 ? "high" : risk >= 0.05 ? "mid" : "low";
    return h("div", {class: "odds " + tone},
      h("div", {class: "odds-head"},
        h("span", {class: "label", text: "Red-light risk next roll"}),
        h("span", {class: "odds-value", text: percent(risk)})),
      h("div", {class: "meter"}, h("div", {class: "meter-fill", style: {width: width + "%"}})));
  }

  /** What the camera saw (live extras `camera` and `dice`), or null without a camera. */
  function cameraSaw(state) {
    const camera = state.camera;
    const dice = state.dice;
    if (!camera && !dice) return null;
    const seen = dice && dice.seen;
    const online = camera ? camera.online : true;
    return h("section", {class: "camera-saw", id: "camera-saw"},
      h("div", {class: "odds-head"},
        h("span", {class: "label", text: online ? "The camera sees" : "The camera last saw"}),
        h("span", {class: "cam-status" + (online ? " on" : " off"),
                   text: online ? "watching" : "camera offline"})),
      seen ? h("div", {class: "roll small"}, ["green", "yellow", "red", "other"].filter((c) => c !== "other" || seen.other)
        .map((c) => h("span", {class: "chip " + c}, h("span", {class: "chip-n", text: seen[c] || 0}),
                      h("span", {class: "chip-c", text: c})))) : h("p", {class: "roll-none", text: "No dice in view"}),
      dice && dice.message ? h("p", {class: "hint", text: dice.message}) : null,
      dice && dice.offer ? h("p", {class: "offer", text: "Waiting for the host to confirm this roll"}) : null);
  }

  /** "Ann banked 30 (total 80)" / "Ben: red light, 0 this turn (lost 12)": the last turn. */
  function lastTurnText(last) {
    if (!last) return null;
    if (last.how === "bank") return last.player + " banked " + last.points + " (total " + last.total + ")";
    if (last.how === "red-light") return last.player + ": red light, 0 this turn" + (last.lost ? " (lost " + last.lost + ")" : "") + " · total " + last.total;
    return last.player + " left the table with " + last.total;
  }

  /** In the final round: "Ben needs 75 to tie, 76 to win" (points to bank this turn). */
  function needsText(needs) {
    if (!needs) return null;
    if (needs.win === 0) return needs.player + " already leads";
    if (needs.tie === 0) return needs.player + " is level: " + needs.win + " more wins";
    return needs.player + " needs " + (needs.tie === null ? "" : needs.tie + " to tie, ") + needs.win + " to win";
  }

  /** The scores' heading: the rule that matters now. */
  function scoresLabel(state, target) {
    if (state.over) return "Final scores";
    if (state.final_round) return "Scores · the highest over " + target + " wins";  // the banner says "Final round"
    return "Scores · first past " + target + " triggers the final round";
  }

  function render(state) {
    const turn = state.turn || {points: 0, dice_in_hand: DICE, rolls: 0};
    const current = state.current === null ? null : state.players[state.current];
    const target = state.target || 100;
    const parts = [];
    if (state.final_round && !state.over) {
      parts.push(h("div", {class: "banner final-round", role: "status"},
        h("strong", {text: "Final round"}),
        " ", (state.final_turns || []).length
          ? "Still to play: " + state.final_turns.join(", ")
          : "Last turn!",
        state.needs ? h("span", {class: "needs", id: "needs", text: " · " + needsText(state.needs)}) : null));
    }
    if (current && !state.over) {
      parts.push(h("section", {class: "now toss-up-now"},
        h("p", {class: "label", text: "Now rolling"}),
        h("p", {class: "now-name", id: "now-name", text: current.name}),
        h("div", {class: "stats"},
          h("div", {class: "stat big"}, h("span", {class: "stat-n", id: "turn-points", text: turn.points}),
            h("span", {class: "stat-l", text: "turn points"})),
          h("div", {class: "stat"}, h("span", {class: "stat-n", id: "dice-in-hand", text: turn.dice_in_hand}),
            h("span", {class: "stat-l", text: "dice in hand"}))),
        diceInHand(turn.dice_in_hand),
        oddsMeter(state)));
    }
    parts.push(cameraSaw(state));
    parts.push(h("section", {class: "last-roll"},
      h("p", {class: "label", id: "last-roll-label", text: rollTitle(state)}),
      lastRoll(state.last_roll)));
    parts.push(h("section", {class: "table"},
      h("p", {class: "label", id: "scores-label", text: scoresLabel(state, target)}),
      playerList(state, (p, seat) => [
        h("span", {class: "progress", "aria-hidden": "true"},
          h("span", {class: "progress-fill", style: {width: Math.min(100, 100 * p.score / target) + "%"}})),
        seat === state.current && turn.points > 0 && !state.over
          ? h("span", {class: "pending", title: "points this turn, not banked yet", text: "+" + turn.points}) : null]),
      // what just happened, under the scores it changed (the TV's scores column has room for it)
      state.last_turn ? h("p", {class: "hint last-round", id: "last-turn", text: lastTurnText(state.last_turn)}) : null));
    parts.push(scoreChart(state, "turn"));
    return h("div", {class: "panel toss-up"}, parts);
  }

  function cue(event) {
    switch (event.kind) {
      case "red-light":
        return {text: event.player + " ran a red light" + (event.lost ? " and lost " + event.lost : "") + "!", tone: "bad", sound: "bad"};
      case "bank":
        return {text: event.player + " banked " + event.points + " → " + event.total, tone: "good", sound: "good"};
      case "all-green":
        return {text: "All ten dice scored: " + event.player + " rolls all ten again!", tone: "good"};
      case "all-yellow":
        return {text: "All yellow: nothing happens", tone: "info"};
      case "final-round":
        return {text: "Final round! " + event.player + " has " + event.total, tone: "warn", sound: "warn"};
      case "final-round-closed":
        return {text: "Nobody is over " + event.target + ": the final round closes, play goes on", tone: "warn", sound: "warn"};
      case "game-over":
        return {text: "Game over!", tone: "good", sound: "win"};
      case "roll":
        return {text: event.player + " rolled " + event.green + " green", tone: "info"};
      default:
        return null;
    }
  }

  Panels["toss-up"] = {render, cue};
})();
