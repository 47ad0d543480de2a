/* Paper Tales on the host page: the phase timer (start/pause, +30 s), next phase, and the
 * ledger: Gold and Legend Points per player, Buildings, the Wars strengths, the tally.
 * Deployment is entered as Unit ids (a list to tap from).
 */
"use strict";

(function () {
  const BUILDINGS = [["town", "Town"], ["tavern", "Tavern"], ["mine", "Mine"], ["temple", "Temple"], ["barracks", "Barracks"]];
  const title = (w) => w.charAt(0).toUpperCase() + w.slice(1);
  const TEMPLE_GOLD = {1: 2, 2: 3};  // Gold instead of the Temple's Crystal, by level (units digest)
  /** A Unit's name from its id: "cave-spirit" -> "Cave Spirit", "relic-of-wisdom" -> "Relic of Wisdom". */
  const unitName = (id) => id.split("-").map((w) => (w === "of" ? w : title(w))).join(" ");

  function render(state, send) {
    const root = h("div", {class: "tales-host"});
    const redraw = () => fill(root, body(state, send, redraw));
    redraw();
    return root;
  }

  function ledger(state, send, redraw) {
    const draft = draftFor("ledger" + state.version, () => ({player: 0, amount: 1}));
    const seat = draft.player;
    return Touch.section("Gold and Legend Points",
      Touch.players(state, (s) => { draft.player = s; redraw(); }, {selected: seat}),
      Touch.stepper("Amount", draft.amount, (v) => { draft.amount = v; redraw(); }, {min: -20, max: 20}),
      h("div", {class: "action-row"},
        Touch.act((draft.amount >= 0 ? "+" : "") + draft.amount + " Gold", {type: "gold", player: seat, amount: draft.amount}, send,
                  {tone: "ghost", disabled: !draft.amount}),
        Touch.act((draft.amount >= 0 ? "+" : "") + draft.amount + " LP", {type: "lp", player: seat, amount: draft.amount}, send,
                  {tone: "ghost", disabled: !draft.amount})));
  }

  function build(state, send, redraw) {
    const draft = draftFor("build" + state.version, () => ({player: null, level: 1, templeGold: false}));
    const gold = TEMPLE_GOLD[draft.level];  // the Temple may be paid in Gold instead of its Crystal
    const templeGold = (b) => (b === "temple" && draft.templeGold ? {resource_gold: gold} : {});
    return Touch.section("Construction",
      Touch.players(state, (s) => { draft.player = s; redraw(); }, {selected: draft.player, skip: (s) => state.players[s].built}),
      Touch.choices([[1, "Level 1"], [2, "Level 2"]], (l) => { draft.level = l; redraw(); }, {selected: draft.level, cols: 2}),
      Touch.choices([[false, "Temple: " + (draft.level === 1 ? "a Crystal" : "2 Crystal")], [true, "Temple: " + gold + " Gold"]],
                    (g) => { draft.templeGold = g; redraw(); }, {selected: draft.templeGold, cols: 2, label: "Temple paid with"}),
      Touch.choices(BUILDINGS.map(([v, t]) => [v, t, {disabled: draft.player === null}]),
                    (b) => send({type: "build", player: draft.player, building: b, level: draft.level, ...templeGold(b)}),
                    {cols: 3, label: "Building"}));
  }

  function wars(state, send, redraw) {
    const draft = draftFor("wars" + state.version, () => ({strengths: state.players.map((p) => p.strength)}));
    return Touch.section("Wars",
      state.players.map((p, i) => Touch.stepper(p.name, draft.strengths[i], (v) => { draft.strengths[i] = v; redraw(); }, {max: 60})),
      h("div", {class: "action-row"},
        Touch.act("Score these", () => ({type: "wars", strengths: draft.strengths}), send, {id: "score-wars"}),
        Touch.act("Score from realms", {type: "wars"}, send, {tone: "ghost"})));
  }

  function tally(state, send, redraw) {
    const draft = draftFor("tally" + state.version, () => ({lp: state.players.map(() => 0)}));
    return Touch.section("Building Legend Points",
      state.players.map((p, i) => Touch.stepper(p.name, draft.lp[i], (v) => { draft.lp[i] = v; redraw(); }, {max: 99})),
      Touch.act("Final tally", () => ({type: "tally", building_lp: draft.lp}), send, {tone: "good", id: "tally"}));
  }

  function deploy(state, send, redraw) {
    const units = (GAMES["paper-tales"].actions.find((a) => a.type === "deploy").properties.front.items.enum) || [];
    const draft = draftFor("deploy" + state.version, () => ({player: null, front: [], back: [], discard: [], row: "front"}));
    const player = draft.player === null ? null : state.players[draft.player];
    return Touch.section("Deployment",
      Touch.players(state, (s) => {
        draft.player = s;
        draft.front = state.players[s].front.map((u) => u.unit);
        draft.back = state.players[s].back.map((u) => u.unit);
        draft.discard = [];
        redraw();
      }, {selected: draft.player, skip: (s) => state.players[s].deployed}),
      player ? [
        Touch.choices([["front", "Front: " + (draft.front.map(unitName).join(", ") || "empty")],
                       ["back", "Back: " + (draft.back.map(unitName).join(", ") || "empty")]],
                      (r) => { draft.row = r; redraw(); }, {selected: draft.row, cols: 1}),
        h("details", {class: "touch-more"}, h("summary", {text: "Add a Unit to the " + draft.row}),
          Touch.choices(units.map((u) => [u, unitName(u)]), (u) => { draft[draft.row].push(u); redraw(); }, {cols: 2, label: "Unit"})),
        fresh(player, draft, redraw),
        h("div", {class: "action-row"},
          Touch.act("Deploy", () => ({type: "deploy", player: draft.player, front: draft.front, back: draft.back,
                                      ...(draft.discard.length ? {discard: draft.discard} : {})}), send, {id: "deploy"}),
          h("button", {type: "button", class: "btn big ghost", text: "Clear row", onclick: () => { draft[draft.row] = []; redraw(); }}))] : null);
  }

  /** A Unit in play swapped for a fresh copy of it from the hand: the old one is discarded
   *  (sent as `discard`), so the copy placed is paid for and carries no Age token. */
  function fresh(player, draft, redraw) {
    const left = {};  // aged copies in play not yet marked for a fresh one
    for (const u of [...player.front, ...player.back]) if (u.aged) left[u.unit] = (left[u.unit] || 0) + 1;
    if (!Object.keys(left).length) return null;
    const aged = Object.keys(left);
    for (const u of draft.discard) left[u] -= 1;
    return h("details", {class: "touch-more", id: "fresh-copy", open: draft.discard.length > 0},
      h("summary", {text: draft.discard.length ? "Fresh copies: " + draft.discard.map(unitName).join(", ")
                                                 : "Swap an aged Unit for a fresh copy"}),
      Touch.choices(aged.map((u) => [u, unitName(u) + " (aged)", {disabled: !left[u]}]),
                    (u) => { draft.discard.push(u); redraw(); }, {cols: 2, label: "Aged Unit to replace"}));
  }

  function body(state, send, redraw) {
    const waits = Touch.timerWaits(state);  // turn 1's Recruitment, until Start timer
    const parts = [h("div", {class: "turn-head"},
      h("p", {class: "turn-who", text: "Turn " + state.turn + " · " + title(state.phase)}),
      h("p", {class: "turn-meta", text: state.times_up ? "Time's up"
        : waits ? "The timer waits: tap Start timer when everyone is ready" : "Everyone plays at once"}))];
    if (state.phase === "tally") return [...parts, tally(state, send, redraw), ledger(state, send, redraw)];
    parts.push(Touch.timerBar(state, send, Touch.act("Next phase →", {type: "next", phase: state.phase}, send,
                                                     {id: "next-phase", tone: waits ? "ghost" : "primary"})));
    if (state.phase === "deployment") parts.push(deploy(state, send, redraw));
    if (state.phase === "wars" && !state.wars) parts.push(wars(state, send, redraw));
    if (state.phase === "construction") parts.push(build(state, send, redraw));
    parts.push(ledger(state, send, redraw));
    return parts;
  }

  function describe(a) {
    if (a.type === "gold" || a.type === "lp") return (a.amount > 0 ? "+" : "") + a.amount + " " + (a.type === "lp" ? "LP" : "Gold") + " for " + playerName(a.player);
    if (a.type === "build") return playerName(a.player) + " builds " + title(a.building) + " level " + (a.level || 1)
                                   + (a.resource_gold ? " (" + a.resource_gold + " Gold for its Crystal)" : "");
    if (a.type === "deploy") return playerName(a.player) + " deploys " + ([...(a.front || []), ...(a.back || [])].map(unitName).join(", ") || "nothing")
                                    + (a.discard && a.discard.length ? " (fresh " + a.discard.map(unitName).join(", ") + ")" : "");
    if (a.type === "next") return "Next phase";
    if (a.type === "wars") return a.strengths ? "Wars scored: " + a.strengths.map((s, seat) => playerName(seat) + " " + s).join(", ")
                                              : "Wars scored from the realms";
    if (a.type === "tally") return "Final tally: " + (a.building_lp || []).map((lp, seat) => playerName(seat) + " +" + lp + " LP").join(", ");
    return describeAction(a);
  }

  HostControls["paper-tales"] = {render, describe};
})();
