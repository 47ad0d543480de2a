/* Sorry! Revenge on the scoreboard: the running total (big, with how far to 21), whose
 * card, the direction, a waiting 21 or SORRY!, everyone's pawns HOME and at START, the
 * tiebreaker. Speech can read the total aloud (off by default; a button in the panel).
 * State fields: players [{name, score, home, start, returning}], current, stage, total,
 * pile, direction, round, play2_left, pending, tiebreak, last_round, goal, history; the live
 * extras camera, hand and cards (what the camera reads of the pile).
 */
"use strict";

(function () {
  const CARD = {"slide-10": "Slide 10", "slide-15": "Slide 15", "slide-21": "Slide 21", switch: "Switch",
                "draw-2": "Draw 2", "play-2": "Play 2", sorry: "SORRY!", "dont-be-sorry": "Don't Be SORRY!"};
  const cardName = (id) => CARD[id] || id.replace("number-", "");

  /** Four dots: gold for a pawn HOME; in the longer game, once all four made it HOME,
   *  green for a pawn back at START, and "↩ to START" says which way they go now. */
  function pawns(p) {
    const dots = [];
    for (let i = 0; i < 4; i++) {
      const kind = i < p.home ? " home" : p.returning ? " back" : "";
      dots.push(h("span", {class: "pawn" + kind}));
    }
    return h("span", {class: "pawns" + (p.returning ? " returning" : ""),
                      "aria-label": p.home + " pawns HOME" + (p.returning ? ", " + (4 - p.home) + " back at START, returning" : "")},
      dots, p.returning ? h("span", {class: "pawn-dir", "aria-hidden": "true", text: "↩ to START"}) : null);
  }

  function pendingBanner(state) {
    const p = state.pending;
    if (!p) return null;
    const text = p.kind === "claim" ? p.player + " made 21! Anyone with SORRY! may steal it."
      : p.kind === "take-back" ? p.player + " played SORRY! on " + p.target + ": Don't Be SORRY! blocks it."
      : p.player + " steals " + p.target + "'s 21! Don't Be SORRY! blocks it.";
    return h("div", {class: "banner final-round", role: "status", id: "pending"}, h("strong", {text: "Wait"}), " " + text);
  }

  /** Mid-tiebreaker there is no pile to play on: say who lays a pile from their hand. */
  function tiebreakBanner(state) {
    const t = state.tiebreak;
    if (!t || state.over) return null;
    const todo = t.to_play || t.players.filter((n) => !(n in t.piles));
    return h("div", {class: "banner final-round", role: "status", id: "tiebreak-now"},
      h("strong", {text: "Tiebreaker"}),
      " " + t.players.join(" and ") + " each lay cards from their hand in a pile of their own: closest to 21 without going over wins."
        + (todo.length ? " Still to play: " + todo.join(", ") + "." : ""));
  }

  /** Every tiebreaker round's piles (a tied round is played again), so the table sees why
   *  someone is out; the round being played lists its players, "…" until they report. */
  function tiebreakCard(state) {
    const t = state.tiebreak;
    const rounds = (t.rounds || [t.piles]).slice();
    const open = !state.over && !Object.keys(t.piles).length;  // a round just (re)started
    if (open) rounds.push({});
    return h("section", {class: "last-roll", id: "tiebreak"}, h("p", {class: "label", text: "Tiebreaker: closest to 21"}),
      rounds.map((piles, i) => {
        const last = i === rounds.length - 1;
        const names = last && !state.over ? t.players : Object.keys(piles);
        return h("div", {class: "tb-round"},
          rounds.length > 1 ? h("p", {class: "hint", text: "Round " + (i + 1) + (last ? "" : " · tied again")}) : null,
          h("ul", {class: "hazards"}, names.map((n) => h("li", {},
            h("span", {text: n}),
            h("span", {text: n in piles ? piles[n] + (piles[n] > 21 ? " · over" : "") : "…"})))));
      }));
  }

  function render(state) {
    const parts = [pendingBanner(state), tiebreakBanner(state)];
    const current = state.current === null ? null : state.players[state.current];
    if (!state.over && state.stage !== "tiebreak") {  // no pile, no next card in a tiebreaker
      const gap = 21 - state.total;
      parts.push(h("section", {class: "now sorry-now"},
        h("div", {class: "row between"},
          h("p", {class: "label", text: "Round " + state.round + " · pile total"}),
          h("button", {type: "button", class: "chip-btn", id: "speech", "aria-pressed": String(Cues.speech),
                       text: Cues.speech ? "Say totals: on" : "Say totals: off",
                       onclick: (e) => { Cues.setSpeech(!Cues.speech); Board.render(Live.last, false); }})),
        h("p", {class: "total" + (gap < 0 ? " bust" : gap === 0 ? " hit" : gap <= 5 ? " close" : ""), id: "pile-total", text: state.total}),
        h("p", {class: "step-text", text: gap > 0 ? gap + " to go" : gap === 0 ? "21!" : "Bust"}),
        current ? h("p", {class: "now-small"}, h("span", {class: "label", text: "Next card · "}),
          h("span", {id: "now-name", class: "now-who", text: current.name}),
          h("span", {class: "dir", text: state.direction === "clockwise" ? " ↻" : " ↺"})) : null,
        state.play2_left ? h("p", {class: "tag", text: "Play 2: " + state.play2_left + " number cards to go"}) : null,
        state.pile.length ? h("div", {class: "cards"}, state.pile.slice(-6).map((c) => h("span", {class: "card-face", text: cardName(c)}))) : null));
    }
    parts.push(cardsSaw(state, cardName, (a) => (current ? current.name + " plays " : "play ") + cardName(a.card)));
    if (state.tiebreak) parts.push(tiebreakCard(state));
    if (state.last_round) {
      const r = state.last_round;
      const how = r.how === "bust" ? r.player + " busted at " + r.total : r.how === "steal" ? r.player + " stole the 21" : r.player + " made 21";
      const back = r.to_start || [];  // the longer game: those flips sent a pawn back to START
      const home = r.flipped.filter((n) => !back.includes(n));
      const flips = [home.length ? "pawn HOME for " + home.join(", ") : null,
                     back.length ? "pawn back to START for " + back.join(", ") : null].filter(Boolean);
      parts.push(h("p", {class: "hint last-round", id: "last-round", text: "Round " + r.round + ": " + how + " · " + flips.join(" · ")}));
    }
    parts.push(h("section", {class: "table"},
      h("p", {class: "label", text: state.longer ? "Pawn flips · all 4 HOME, then all 4 back to START wins"
                                                 : "Pawns HOME · first to " + state.goal + " wins"}),
      playerList(state, (p) => pawns(p))));
    parts.push(scoreChart(state, "round"));
    return h("div", {class: "panel sorry-21"}, parts);
  }

  function cue(event) {
    switch (event.kind) {
      case "card": return {text: event.player + ": " + cardName(event.card) + " → " + event.total, tone: "info", sound: "tick", say: String(event.total)};
      case "twenty-one": return {text: event.player + " made 21!", tone: "good", sound: "good", say: "21!"};
      case "bust": return {text: event.player + " busted!", tone: "bad", sound: "bad", say: "Bust!"};
      case "sorry": return {text: "SORRY!", tone: "warn", sound: "warn"};
      case "blocked": return {text: "Blocked: Don't Be SORRY!", tone: "good", sound: "good"};
      case "game-over": return {text: "Game over!", tone: "good", sound: "win"};
      default: return null;
    }
  }

  Panels["sorry-21"] = {render, cue};
})();
