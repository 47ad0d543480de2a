/* The host page's "Rename a player": a name typed wrong at the start, fixed in any game.
 * Sends {type: "rename", player: seat, name} (companion/games/table_actions.py checks the
 * name as at the start: 1-40 characters, not another player's); the refusal shows in the
 * page's error line like any other. Each pick fills the field with the picked player's
 * name; the field counts characters as the other name fields do (static/js/names.js).
 */
"use strict";

const Rename = {
  draft: {player: null, name: ""},

  render(state) {
    const typing = document.activeElement && document.activeElement.id === "rename-name";
    const names = state.players.map((p) => p.name).join();
    if (typing && this.shownFor === names) return;  // keep the caret while typing
    this.shownFor = names;
    const d = this.draft;
    if (d.player !== null && d.player >= state.players.length) d.player = null;
    const ready = () => d.player !== null && d.name.trim() !== "" && !Names.isTooLong(d.name)
      && d.name.trim() !== state.players[d.player].name;
    const input = h("input", {type: "text", id: "rename-name", value: d.name, autocomplete: "off",
                              placeholder: "The new name", "aria-label": "New name",
                              oninput: (e) => { d.name = e.target.value; button.disabled = !ready(); }});
    const button = h("button", {type: "button", id: "rename-send", class: "btn primary big",
                                text: d.player === null ? "Rename" : "Rename " + state.players[d.player].name,
                                disabled: !ready(), onclick: async () => {
                                  if (await Host.send({type: "rename", player: state.players[d.player].name, name: d.name.trim()})) {
                                    Object.assign(this.draft, {player: null, name: ""});  // the one draft every render shares
                                    document.getElementById("rename-card").open = false;
                                    this.shownFor = null;
                                    this.render(Host.state);
                                  }
                                }});
    fill(document.getElementById("rename-form"),
      Touch.players(state, (seat) => {
        if (seat !== d.player) d.name = state.players[seat].name;  // a new pick: that player's name
        d.player = seat;
        this.shownFor = null;
        this.render(state);
      }, {selected: d.player, label: "Who"}),
      input, Names.watch(input), button);
  },
};
