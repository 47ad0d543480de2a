/* Paper Tales on the scoreboard: turn and phase, the pass direction for the draft, the
 * phase timer counted down locally from the server's deadline, the phase's reminders,
 * each player's Legend Points, Gold, War strength and Buildings, the Wars result.
 * State fields: players [{name, score, gold, strength, buildings, deployed, built}],
 * turn, turns, phase, phase_number, phases, direction, draft, timer, times_up,
 * reminders, wars, history.
 */
"use strict";

(function () {
  const title = (word) => word.charAt(0).toUpperCase() + word.slice(1);

  function phaseSteps(state) {
    return h("ol", {class: "phase-steps", "aria-label": "Phases"}, state.phases.map((p, i) =>
      h("li", {class: (i + 1 === state.phase_number ? "on" : i + 1 < state.phase_number ? "done" : ""), text: title(p)})));
  }

  function render(state) {
    const parts = [];
    if (!state.over) {
      const left = state.direction === "left";
      parts.push(h("section", {class: "now tales-now"},
        h("p", {class: "label", text: "Turn " + state.turn + " of " + state.turns}),
        h("p", {class: "now-name", id: "phase-name", text: title(state.phase)}),
        state.phase_number ? phaseSteps(state) : null,
        h("div", {class: "tales-row"},
          h("div", {class: "countdown-box"},
            timerView(state.timer, "phase-timer"),  // an untimed phase: only the words, no big dash
            h("p", {class: "step-text", text: state.times_up ? "Time's up!" : !state.timer ? "no timer"
              : state.timer.running ? "left" : timerWaits(state.timer) ? "not started" : "paused"})),
          state.phase === "recruitment" ? h("div", {class: "direction", id: "direction"},
            h("span", {class: "dir-arrow", text: left ? "←" : "→"}),
            h("span", {text: "pass " + state.direction}),
            h("span", {class: "hint", text: "keep " + state.draft.keep + (state.draft.discard ? ", discard " + state.draft.discard : "")})) : null),
        (state.reminders || []).length ? h("ul", {class: "reminders"}, state.reminders.map((r) => h("li", {text: r}))) : null));
    }
    parts.push(h("section", {class: "table"},
      h("p", {class: "label", text: "Legend Points · Gold · War strength"}),
      playerList(state, (p) => h("span", {class: "tales-stats"},
        h("span", {class: "gold", title: "Gold", text: p.gold + "g"}),
        h("span", {class: "str", title: "War strength", text: "⚔" + p.strength}),
        h("span", {class: "blds", text: Object.entries(p.buildings).filter(([, lv]) => lv).map(([b, lv]) => title(b) + (lv > 1 ? " II" : "")).join(" · ")})))));
    if (state.wars) {
      parts.push(h("section", {class: "last-roll"}, h("p", {class: "label", text: "Wars this turn"}),
        h("ul", {class: "hazards"}, state.players.map((p, i) => h("li", {},
          h("span", {text: p.name + " ⚔" + state.wars.strengths[i]}),
          h("span", {text: state.wars.won[i] + " won · +" + state.wars.lp[i] + " LP"}))))));
    }
    parts.push(scoreChart(state, "turn"));
    return h("div", {class: "panel paper-tales"}, parts);
  }

  function cue(event) {
    switch (event.kind) {
      case "phase": return {text: "Turn " + event.turn + ": " + title(event.phase), tone: "info", sound: "warn"};
      case "times-up": return {text: "Time's up!", tone: "warn"};
      case "wars": return {text: "Wars scored", tone: "info", sound: "tick"};
      case "game-over": return {text: "Game over!", tone: "good", sound: "win"};
      default: return null;
    }
  }

  Panels["paper-tales"] = {render, cue};
})();
