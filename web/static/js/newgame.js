/* The host page's new-game form: game, players in seat order (add, remove, reorder),
 * the game's options; posts to /api/games. Names of the last game are offered again.
 */
"use strict";

const NewGame = {
  filled: false,
  confirmUntil: 0,

  /** Names of earlier games on this phone (newest first), offered as suggestions. */
  known() {
    try { return JSON.parse(localStorage.getItem("companion-names") || "[]").filter((n) => typeof n === "string"); }
    catch (e) { return []; }
  },

  remember(names) {
    const all = [...names, ...this.known().filter((n) => !names.some((m) => m.toLowerCase() === n.toLowerCase()))];
    localStorage.setItem("companion-names", JSON.stringify(all.slice(0, 40)));
    this.fillKnown();
  },

  /** A player of the running game renamed (a name typed wrong): the new name takes the old
   *  one's place in the form's players and in the names this phone remembers, so the next
   *  game does not bring the old name back. Again is harmless. */
  renamed(was, name) {
    for (const input of document.querySelectorAll("#player-list input")) if (input.value.trim() === was) input.value = name;
    const known = this.known();
    if (!known.includes(was)) return;
    const swapped = known.map((n) => n === was ? name : n);
    localStorage.setItem("companion-names", JSON.stringify(
      swapped.filter((n, i) => swapped.findIndex((m) => m.toLowerCase() === n.toLowerCase()) === i)));
    this.fillKnown();
  },

  fillKnown() {
    let list = document.getElementById("known-names");
    if (!list) { list = h("datalist", {id: "known-names"}); document.body.append(list); }
    const names = [...this.known()];
    for (const n of this.journaled || []) if (!names.some((m) => m.toLowerCase() === n.toLowerCase())) names.push(n);
    fill(list, names.map((n) => h("option", {value: n})));
  },

  /** Also offer every name the companion's history knows (any phone's games). */
  loadJournaled() {
    fetch("/api/history", {cache: "no-store"}).then((r) => r.json())
      .then((data) => { this.journaled = data.names || []; this.fillKnown(); })
      .catch(() => {});
  },

  init() {
    this.fillKnown();
    this.loadJournaled();
    const select = document.getElementById("game-select");
    fill(select, CATALOG.map((g) => h("option", {value: g.id, text: g.name})));
    select.addEventListener("change", () => this.showGame());
    document.getElementById("add-player").addEventListener("click", () => {
      this.addPlayer("");
      const inputs = document.querySelectorAll("#player-list input");
      inputs[inputs.length - 1].focus();
    });
    document.getElementById("new-game-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    this.showGame();
  },

  game() { return GAMES[document.getElementById("game-select").value]; },

  showGame() {
    const game = this.game();
    if (!game) return;
    document.getElementById("game-hint").textContent = game.min_players + " to " + game.max_players + " players";
    while (this.names().length < game.min_players) this.addPlayer("");
    fill(document.getElementById("options"), Object.entries(game.options).map(([name, value]) =>
      this.option(name, value, (game.option_hints || {})[name])));
    this.keepOptions(Host.state);
    this.refreshButtons();
  },

  /** Start the options of the game on the table from its own settings (the state shows
   *  them under the options' names), so "play again" keeps a target of 30. */
  keepOptions(state) {
    const game = this.game();
    if (!state || !game || state.game !== game.id) return;
    const put = (input, value) => {
      if (input.dataset.kind === "boolean" && typeof value === "boolean") input.checked = value;
      else if (input.dataset.kind === "number" && typeof value === "number") input.value = value;
    };
    for (const field of document.querySelectorAll("#options > .field")) {
      const value = state[field.dataset.name];
      if (value === undefined || value === null) continue;
      if (field.dataset.kind !== "group") put(field.querySelector("[name]"), value);
      else for (const sub of field.querySelectorAll(".field")) put(sub.querySelector("[name]"), value[sub.dataset.name]);
    }
  },

  /** The field of one option, from its default: a number, a yes/no, a group of numbers
   *  (Paper Tales' seconds per phase), or a list left empty for the game's default; with
   *  the game's one line on what it does (`hint`, the catalogue's option_hints). */
  option(name, value, hint) {
    const says = hint ? h("p", {class: "hint option-hint", text: hint}) : null;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const words = name.replace(/_/g, " ");
      return h("fieldset", {class: "field option-group", dataset: {name, kind: "group"}},
        h("legend", {text: words.charAt(0).toUpperCase() + words.slice(1)}), says,
        Object.entries(value).map(([key, v]) => fieldFor(key, {type: "integer", minimum: 0}, v)));
    }
    if (value === null || Array.isArray(value)) {
      const field = fieldFor(name, {type: "string"}, "");
      const input = field.querySelector("input");
      input.placeholder = "Default";  // the rest wraps below: a phone's field cut it off
      input.dataset.kind = "list";
      field.append(says || "", h("p", {class: "hint", text: "Leave empty for the default, or list names separated by commas."}));
      return field;
    }
    const field = fieldFor(name, {type: typeof value === "number" ? "integer" : typeof value}, value);
    if (says) field.append(says);
    return field;
  },

  /** The value of one option's field, or undefined to leave the game's default. */
  readOption(field) {
    if (field.dataset.kind === "group") {
      const group = {};
      for (const sub of field.querySelectorAll(".field")) {
        const value = readField(sub.querySelector("[name]"));
        if (value !== undefined) group[sub.dataset.name] = value;
      }
      return group;
    }
    const input = field.querySelector("[name]");
    if (input.dataset.kind === "list") {
      const items = input.value.split(",").map((v) => v.trim()).filter((v) => v);
      return items.length ? items : undefined;
    }
    return readField(input);
  },

  names() { return [...document.querySelectorAll("#player-list input")].map((i) => i.value.trim()); },

  addPlayer(name) {
    const list = document.getElementById("player-list");
    const index = list.children.length + 1;
    // no maxlength: it counts UTF-16 units (a family emoji is 11); Names counts the 40
    // characters a person sees, as the companion does (static/js/names.js)
    const input = h("input", {type: "text", value: name, placeholder: "Player " + index,
                              "aria-label": "Player " + index + " name", autocapitalize: "words", enterkeyhint: "next",
                              list: "known-names"});
    const row = h("li", {class: "player-row"}, input,
      h("button", {type: "button", class: "icon", "aria-label": "Move up", text: "↑", onclick: () => this.move(row, -1)}),
      h("button", {type: "button", class: "icon", "aria-label": "Move down", text: "↓", onclick: () => this.move(row, 1)}),
      h("button", {type: "button", class: "icon danger", "aria-label": "Remove", text: "✕", onclick: () => { row.remove(); this.refreshButtons(); }}),
      Names.watch(input));
    list.append(row);
    this.refreshButtons();
  },

  move(row, step) {
    const list = row.parentElement;
    if (step < 0 && row.previousElementSibling) list.insertBefore(row, row.previousElementSibling);
    if (step > 0 && row.nextElementSibling) list.insertBefore(row.nextElementSibling, row);
    this.refreshButtons();
  },

  refreshButtons() {
    const game = this.game();
    const rows = [...document.querySelectorAll("#player-list li")];
    rows.forEach((row, i) => {
      row.querySelector("input").placeholder = "Player " + (i + 1);
      row.querySelector("input").setAttribute("aria-label", "Player " + (i + 1) + " name");
      row.querySelector('[aria-label="Move up"]').disabled = i === 0;
      row.querySelector('[aria-label="Move down"]').disabled = i === rows.length - 1;
      row.querySelector('[aria-label="Remove"]').disabled = game && rows.length <= game.min_players;
    });
    document.getElementById("add-player").disabled = game && rows.length >= game.max_players;
  },

  /** Offer the players of the last game once, when the page opens. */
  prefill(state) {
    if (this.filled) return;
    this.filled = true;
    if (state.game && GAMES[state.game]) document.getElementById("game-select").value = state.game;
    if (state.players && state.players.length) {
      fill(document.getElementById("player-list"));
      state.players.forEach((p) => this.addPlayer(p.name));
    }
    this.showGame();
  },

  async submit() {
    const game = this.game();
    const state = Host.state;
    const button = document.getElementById("start");
    if (state && state.game && !state.over && Date.now() > this.confirmUntil) {
      this.confirmUntil = Date.now() + 5000;
      Host.showError(null);  // an earlier refusal speaks of names since corrected
      button.textContent = "Tap again to end the current game";
      setTimeout(() => { button.textContent = "Start game"; }, 5000);
      return;
    }
    this.confirmUntil = 0;
    button.textContent = "Start game";
    const options = {};
    for (const field of document.querySelectorAll("#options > .field")) {
      const value = this.readOption(field);
      if (value !== undefined) options[field.dataset.name] = value;
    }
    const players = this.names().filter((n) => n);
    if (await Host.post("/api/games", {game: game.id, players, options})) {
      this.remember(players);
      document.getElementById("new-game").open = false;
    }
  },
};
