/* The scoreboard on a big screen (/tv or ?tv=1): read from across the room, never scrolled
 * or tapped. Three jobs, all run after every render (scoreboard.js calls fitTv):
 *  - the type grows from the CSS size while the board still fits the screen;
 *  - the scores stand in two columns when that lets the type grow more than one column
 *    does (a big table: Toss Your Cookies' eight players, a short screen like the Pi's);
 *  - the join QR code goes where the type can grow most: the foot of a column of the panel
 *    with room below its cards (Toss Up!'s chart), so the cards use the screen's whole
 *    width, else a strip of its own down the right edge (always there until this round,
 *    with nothing above the code); at a game's end the panel is one column (app.css) and
 *    the code goes at its foot when that lets the type grow more than the strip.
 */
"use strict";

const Tv = {
  join: null,  // the QR card, made once; each render moves it into the new panel
  spot: null,  // {key, index}: where it went last, kept while the table's layout is the same
  on: document.documentElement.classList.contains("tv") || document.body.classList.contains("tv"),
};

if (Tv.on) {
  document.documentElement.classList.add("tv");
  Tv.join = h("aside", {class: "tv-join", id: "tv-join"},
    h("img", {src: "/join.svg", alt: "QR code of this scoreboard's address", width: 160, height: 160}),
    h("p", {text: "Scan to follow on your phone"}));
  document.body.append(Tv.join);  // until a render places it (hidden on a narrow screen)
}

/** The panel's columns as laid out now: its grid items (a .side shown as `contents` gives
 *  its own children), left to right; [] when the panel is a single column. */
function tvColumns(panel) {
  const items = [...panel.children].filter((el) => el !== Tv.join)
    .flatMap((el) => getComputedStyle(el).display === "contents" ? [...el.children] : [el])
    .filter((el) => el.getBoundingClientRect().height > 0);  // not one hidden (the scores at the game's end) or emptied (tv_drop.js)
  const lefts = new Set(items.map((el) => Math.round(el.getBoundingClientRect().left)));
  return lefts.size > 1 ? items : [];
}

/** The places the QR card can go, each a function that puts it there: the foot of each of
 *  the panel's columns, rightmost first (the other columns span its row too), then a strip
 *  of its own down the screen's right edge (best when every column is full, like Paper
 *  Tales' five players). */
function joinSpots(board) {
  const join = Tv.join;
  const root = document.documentElement;
  const panel = board.querySelector(":scope > .panel");
  const columns = panel ? tvColumns(panel) : [];
  const strip = () => {  // a strip of its own down the right edge, beside the board
    for (const el of columns) el.style.gridRow = "";
    join.style.gridColumn = "";
    root.classList.add("tv-strip");
    document.body.append(join);
  };
  const foot = (i) => () => {
    root.classList.remove("tv-strip");
    for (const [n, el] of columns.entries()) el.style.gridRow = n === i ? "" : "span 2";
    join.style.gridColumn = String(i + 1);
    panel.append(join);
  };
  const under = () => {  // a panel of one column (the game's end): at its foot
    root.classList.remove("tv-strip");
    join.style.gridColumn = "";
    panel.append(join);
  };
  if (panel && !columns.length) return [under, strip];
  return [...columns.map((_, i) => foot(i)).reverse(), strip];
}

/** The ways to stand the scores lists (.players): one column, then two when a list has
 *  more than one row. Each is a function that lays them out so. */
function scoreLayouts(board) {
  const lists = [...board.querySelectorAll(".players")].filter((l) => l.children.length > 1);
  const columns = (two) => () => { for (const l of lists) l.classList.toggle("tv-two", two); };
  return lists.length ? [columns(false), columns(true)] : [columns(false)];
}

/** A TV is read from across the room: its type grows from the CSS size (a floor readable
 *  at arm's length, app.css) while the board still fits the screen and cuts no more words
 *  short than at that size, to twice that at most; names are fitted at each size tried
 *  (fitNames). The QR card goes where the type can grow most, and the scores stand in one
 *  column or two (scoreLayouts), whichever lets it grow most (among equals: one column,
 *  then the first of joinSpots), chosen again when the layout changes. When no layout fits
 *  even at the CSS size (eight players and a claim line on the Pi's 800x480), the spacing
 *  gives way first (`tv-tight`: white space, never the type's size), then the least
 *  important blocks drop out one by one (tv_drop.js) until it fits: fewer details, never
 *  smaller type. Elsewhere only fitNames runs. */
function fitTv(board) {
  const root = document.documentElement;
  if (!root.classList.contains("tv")) return fitNames(board);
  let base = 0;
  const set = (k) => { root.style.fontSize = document.body.style.fontSize = k ? base * k + "px" : ""; };
  set(0);
  base = parseFloat(getComputedStyle(root).fontSize);
  tvUndrop(board);
  if (innerWidth <= 700) { root.classList.remove("tv-tight"); return fitNames(board); }
  const droppable = tvDroppable(board);
  // every layout is tried only when the table changes (game, players, blocks, screen):
  // a redraw within a game costs one fit, as before the QR card moved
  const key = [board.dataset.game, board.querySelectorAll(".player").length, droppable.length,
               !!board.querySelector(".winner"), innerWidth, innerHeight].join();
  let dropped = Tv.spot && Tv.spot.key === key ? Tv.spot.dropped : 0;
  tvDrop(board, droppable, dropped);
  let best = fitLayouts(board, set, key, true);
  while (!best.k && dropped < droppable.length) {
    tvDrop(board, droppable, ++dropped);
    best = fitLayouts(board, set, key, false);
  }
  // still nowhere (eight long names at 800x480): two columns with names cut short
  // ("Bartholo…") rather than a board that runs off the foot of a screen never scrolled
  if (!best.k) best = fitLayouts(board, set, key, false, true);
  Tv.spot.dropped = dropped;
  set(best.k);
  fitNames(board);
}

/** Lays the board out the way (QR card's spot, scores' columns, spacing) that lets the type
 *  grow most, and returns {k}: that scale (0: no way fits). Remembers the way in Tv.spot,
 *  and tries it alone first when `reuse` and the table is the same. `anyCut`: two columns
 *  may cut names short that one column would not (the last resort). */
function fitLayouts(board, set, table, reuse, anyCut) {
  const root = document.documentElement;
  const spots = Tv.join && !Tv.join.classList.contains("tv-drop") ? joinSpots(board)
    : [() => { root.classList.remove("tv-strip"); }];
  const layouts = scoreLayouts(board);
  const key = [table, spots.length, layouts.length].join();
  const all = layouts.flatMap((_, l) => spots.map((_, s) => ({l, s})));
  const every = all.map((_, i) => i);
  const known = reuse && Tv.spot && Tv.spot.layoutKey === key;
  const lay = (index) => { layouts[all[index].l](); spots[all[index].s](); };
  // two columns of scores may cut no more words short than one column does at the CSS
  // size, QR card alike (in a narrow column a name would have no room at all)
  const oneColumn = known ? Tv.spot.oneColumn : [];
  const search = (tried, tight) => {
    root.classList.toggle("tv-tight", tight);
    // when the board fits nowhere even at the base size (a small screen, e.g. the Pi's
    // 800x480 touchscreen), the strip: fixed on screen, where a column's foot would fall
    // below the bottom of a page that is never scrolled; and the scores in one column
    let best = {k: 0, index: tried.length > 1 ? spots.length - 1 : tried[0], tight};
    for (const index of tried) {
      lay(index);
      const {l, s} = all[index];
      const fit = largestFit(board, set, l && !anyCut ? oneColumn[s] : null);
      if (!l) oneColumn[s] = fit.cut;
      if (fit.k > best.k) best = {k: fit.k, index, tight};
    }
    return best;
  };
  let best = search(known ? [Tv.spot.index] : every, known && Tv.spot.tight);
  // what the table shows grew (a claim line under the scores): look again, then tighter
  if (!best.k && known) best = search(every, Tv.spot.tight);
  if (!best.k && !best.tight) best = search(every, true);
  Tv.spot = {key: table, layoutKey: key, index: best.index, oneColumn, tight: best.tight};
  root.classList.toggle("tv-tight", best.tight);
  lay(best.index);
  return best;
}

/** {k, cut}: the largest type scale k from 1 to 2 (within 1/16) at which the board fits
 *  the screen and cuts no more words short than at 1 (or than those in `allowed`, when
 *  given); 0 when it does not fit even at 1. `cut`: the words cut short at 1. */
function largestFit(board, set, allowed) {
  const root = document.documentElement;
  set(1);
  fitNames(board);
  // what can be cut short: elements that hide their overflow (the same at every size)
  const clipping = [...board.querySelectorAll("*")].filter((el) => getComputedStyle(el).overflowX !== "visible");
  const cut = () => clipping.filter((el) => el.scrollWidth > el.clientWidth);
  const cutAtBase = new Set(cut());
  const within = allowed || cutAtBase;
  const fits = () => {
    fitNames(board);
    return root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth
      && cut().every((el) => within.has(el));
  };
  if (!fits()) return {k: 0, cut: cutAtBase};
  let low = 1, high = 2;
  for (let i = 0; i < 4; i++) {
    const mid = (low + high) / 2;
    set(mid);
    if (fits()) low = mid; else high = mid;
  }
  return {k: low, cut: cutAtBase};
}
