/* What a small TV screen leaves out (tv.js's fitTv). A TV is read from across a table: on
 * the Pi's 7" screen (800x480) type under ~14 px cannot be read at arm's length, so the
 * type never goes below a floor (app.css: the root size is at least 17.5 px, a label 14 px),
 * and when the board does not fit at that size, blocks drop out one at a time, the least
 * important first, until it does: fewer details, never smaller type. Never dropped: whose
 * turn it is, the big number or timer, the scores, a final-round banner, the winner card.
 */
"use strict";

/** Least important first: each selector names blocks of the board (or the QR card) that
 *  can go. The winner's cup is an ornament; the chart repeats the scores; what the camera sees is the host's business (the
 *  host page shows it); hints explain what the players already know; then the extras of a
 *  turn (the risk meter, the last roll, the dice), a tiebreaker's piles; the QR card last (a phone can join from
 *  the host's link). */
const TV_DROPS = [
  ".winner-cup",
  ".chart-card",
  ".camera-saw",
  ".main .hint:not(.last-round), .reminders, .tales-now .step-text",
  "details.setup",  // Toss Your Cookies' deal, shown before the first roll: the box says it too
  ".phase-steps",
  ".odds",
  ".last-roll:not(#tiebreak)",
  ".dice-row",
  "#tiebreak",  // a tiebreaker's piles: the winner card's line says who won it and how
  "#tv-join",
];

/** The blocks that can drop out, in the order they go: one entry per selector of
 *  TV_DROPS that matches something shown (all its matches go together). */
function tvDroppable(board) {
  return TV_DROPS.map((sel) => [...board.querySelectorAll(sel)].concat(
    Tv.join && Tv.join.matches(sel) ? [Tv.join] : []))
    .filter((els) => els.some((el) => el === Tv.join || el.getClientRects().length));  // the QR card may be out of the page
}

/** Show every block again (a new render made most of them anew; the QR card is kept). */
function tvUndrop(board) {
  for (const el of board.querySelectorAll(".tv-drop, .tv-empty")) el.classList.remove("tv-drop", "tv-empty");
  if (Tv.join) Tv.join.classList.remove("tv-drop");
}

/** Leave out the first `n` blocks of `droppable` (tvDroppable's answer). At a game's end a
 *  panel left with nothing to show (but the QR card) is marked .tv-empty: the winner card
 *  then takes the board's whole width (app.css). */
function tvDrop(board, droppable, n) {
  for (const els of droppable.slice(0, n)) for (const el of els) el.classList.add("tv-drop");
  const panel = board.querySelector(":scope > .winner ~ .panel");
  if (panel) {
    panel.classList.toggle("tv-empty", ![...panel.children].some((el) => el !== Tv.join
      && el.getClientRects().length && el.innerText.trim()));  // innerText: hidden text too
  }
}
