/* Sorry! Revenge on the host page: every pile card as a big button (tap = played by the
 * player to act), SORRY! take-back, steal / block / accept when a 21 or SORRY! waits,
 * and the tiebreaker piles.
 */
"use strict";

(function () {
  const NUMBERS = Array.from({length: 11}, (_, n) => ["number-" + n, String(n)]);
  const SPECIAL = [["slide-10", "Slide 10"], ["slide-15", "Slide 15"], ["slide-21", "Slide 21"],
                   ["switch", "Switch"], ["draw-2", "Draw 2"], ["play-2", "Play 2"]];

  function render(state, send) {
    const root = h("div", {class: "sorry-host"});
    const redraw = () => fill(root, body(state, send, redraw));
    redraw();
    return root;
  }

  function tiebreak(state, send, redraw) {
    const draft = draftFor("tb" + state.version, () => ({player: null, cards: []}));
    const tied = state.tiebreak.players;
    const total = draft.cards.reduce((sum, c) => c.startsWith("slide-") ? Number(c.slice(6)) : sum + Number(c.slice(7)), 0);
    return Touch.section("Tiebreaker: each tied player's pile",
      Touch.choices(tied.filter((n) => !(n in state.tiebreak.piles)).map((n) => [n, n]),
                    (n) => { draft.player = n; draft.cards = []; redraw(); }, {selected: draft.player}),
      Touch.choices([...NUMBERS, ...SPECIAL.slice(0, 3)], (c) => { draft.cards.push(c); redraw(); }, {cols: 4}),
      h("p", {class: "hint", text: draft.cards.length ? "Pile: " + draft.cards.length + " cards = " + total : "Tap the cards in order"}),
      h("div", {class: "action-row"},
        Touch.act("Record pile", () => ({type: "tiebreak", player: draft.player, cards: draft.cards}), send,
                  {disabled: draft.player === null || !draft.cards.length}),
        h("button", {type: "button", class: "btn big ghost", text: "Clear", onclick: () => { draft.cards = []; redraw(); }})));
  }

  function body(state, send, redraw) {
    if (state.stage === "tiebreak") return [tiebreak(state, send, redraw)];
    const who = state.players[state.current];
    const p = state.pending;  // a 21 or SORRY! waits for an answer: that is the news, not who plays next
    const head = !p ? (who ? who.name : "") + " plays" : waiting(p);
    const parts = [h("div", {class: "turn-head"},
      h("p", {class: "turn-who", text: head + " · total " + state.total}),
      h("p", {class: "turn-meta", text: "Round " + state.round + (state.play2_left ? " · Play 2: " + state.play2_left + " number cards owed" : "")})),
      Touch.cameraCards(state, describe, cardName)];
    if (p && p.kind === "claim") {
      const maker = state.players.findIndex((x) => x.name === p.player);
      parts.push(Touch.section(p.player + " made 21: steal it with SORRY!?",
        Touch.players(state, (seat) => send({type: "steal", player: state.players[seat].name}), {skip: (s) => s === maker || state.players[s].left, label: "Steal by"}),
        Touch.act("Nobody steals: the 21 stands", {type: "accept"}, send, {tone: "good", id: "accept"})));
    } else if (p) {
      parts.push(Touch.section(waiting(p) + ": does " + p.target + " block?",
        h("div", {class: "action-row"},
          Touch.act("Don't Be SORRY! (block)", {type: "block"}, send, {id: "block"}),
          Touch.act("No block", {type: "accept"}, send, {tone: "ghost", id: "accept"}))));
    }
    // after a Play 2 only number cards are allowed: the action cards and SORRY! would be refused
    const owed = state.play2_left;
    parts.push(Touch.section("Card played",
      Touch.choices(NUMBERS, (card) => send({type: "play", card}), {label: "Number cards", cols: 4}),
      owed ? h("p", {class: "hint", id: "play2-hint", text: "Play 2: only number cards until " + owed + " more "
                                                              + (owed === 1 ? "is" : "are") + " played."}) : null,
      Touch.choices(SPECIAL.map(([v, t]) => [v, t, {disabled: Boolean(owed)}]), (card) => send({type: "play", card}),
                    {label: "Action cards", cols: 3})));
    if (!owed) parts.push(h("details", {class: "touch-more"}, h("summary", {text: "SORRY!: send a pawn back"}),
      Touch.players(state, (seat) => send({type: "take-back", target: state.players[seat].name}),
                    {skip: (s) => s === state.current || !state.players[s].home || state.players[s].left, label: "Take back from"})));
    const staying = state.players.filter((x) => !x.left).length;
    if (!p && !state.play2_left && staying > 2) {  // between cards; two players must stay
      parts.push(h("details", {class: "touch-more", id: "leave-picker"}, h("summary", {text: "A player leaves the table"}),
        Touch.section("Who leaves? Their pawns stay; they flip no more pawns.",
          Touch.players(state, (seat) => send({type: "leave", player: state.players[seat].name}),
                        {label: "Who leaves", skip: (s) => state.players[s].left}))));
    }
    return parts;
  }

  /** What waits for an answer, one sentence for the heading and the section under it (a
   *  steal read "Cleo steals Ben's 21" above "Cleo played SORRY! on Ben"), as phones say it. */
  function waiting(p) {
    if (p.kind === "claim") return p.player + " made 21";
    if (p.kind === "take-back") return p.player + " played SORRY! on " + p.target;
    return p.player + " steals " + p.target + "'s 21";
  }

  /** A card's name: "7", "Slide 15", "SORRY!". */
  function cardName(id) {
    return Object.fromEntries([...SPECIAL, ["sorry", "SORRY!"], ["dont-be-sorry", "Don't Be SORRY!"]])[id] || id.replace("number-", "");
  }

  function describe(a) {
    const players = Host.state ? Host.state.players : [];
    if (a.type === "play") {
      const card = cardName(a.card);
      return players[a.turn] ? players[a.turn].name + " plays " + card : "Play " + card;
    }
    if (a.type === "take-back") return "SORRY! on " + playerName(a.target);
    if (a.type === "steal") return "Steal by " + playerName(a.player);
    if (a.type === "tiebreak") return "Tiebreak pile of " + playerName(a.player);
    if (a.type === "leave") return playerName(a.player) + " leaves the table";
    return describeAction(a);
  }

  HostControls["sorry-21"] = {render, describe};
})();
