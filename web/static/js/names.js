/* A player name's length as the companion counts it: characters as a person sees them
 * (companion/graphemes.py), so a family emoji is one of the 40, not 11 UTF-16 units (what
 * maxlength and String.length count) nor 7 code points.
 *
 * Intl.Segmenter splits graphemes by Unicode's rules (UAX #29), which the companion follows
 * or counts a little longer, never shorter; where a browser has no Segmenter, a lower bound
 * stands in: every code point that does not join the one before it (a mark, a joiner, a
 * variation selector, a skin tone, a tag, the pictograph after a joiner, a flag's second
 * half). So the page counts at most what the companion counts, and never calls a name too
 * long that the companion takes; the companion's refusal still speaks when it counts more.
 */
"use strict";

const Names = {
  /** The companion's limits (companion/games/base.py MAX_NAME, MAX_NAME_CODE_POINTS). */
  MAX: 40,
  MAX_CODE_POINTS: 400,
  SHOW_FROM: 30,  // the counter appears from this many characters on

  segmenter: typeof Intl !== "undefined" && typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(undefined, {granularity: "grapheme"}) : null,

  /** Characters in `text` as a person sees them (the companion strips the name first). */
  length(text, segmenter = this.segmenter) {
    const name = text.trim();
    if (segmenter) {
      let count = 0;
      for (const _ of segmenter.segment(name)) count += 1;
      return count;
    }
    return this.lowerBound(name);
  },

  /** Without Intl.Segmenter: code points, less every one that surely joins the one before. */
  lowerBound(name) {
    const JOINS = /[\p{M}\u200c\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;
    const HANGUL = /\p{Script=Hangul}/u, JAMO = /[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/u;
    let count = 0, previous = "", flagHalf = false;
    for (const char of name) {
      const regional = /\p{Regional_Indicator}/u.test(char);
      const joined = JOINS.test(char) || previous === "\u200d" || (regional && flagHalf)
        || (JAMO.test(char) && HANGUL.test(previous));  // a syllable spelled in jamo
      if (!joined) count += 1;
      flagHalf = regional && !flagHalf;
      previous = char;
    }
    return count;
  },

  /** Whether the companion would refuse `text` for its length. */
  isTooLong(text) {
    const name = text.trim();
    return this.length(name) > this.MAX || Array.from(name).length > this.MAX_CODE_POINTS;
  },

  /** Give `input` a counter ("38/40") shown near and past the limit, updated as one types;
   *  past it the field is marked invalid and says so. Returns the counter element. */
  watch(input) {
    const counter = h("span", {class: "name-count", "aria-live": "polite"});
    const update = () => {
      const count = this.length(input.value);
      const over = this.isTooLong(input.value);
      counter.hidden = count < this.SHOW_FROM && !over;
      counter.textContent = over ? `${count}/${this.MAX}: too long` : `${count}/${this.MAX}`;
      counter.classList.toggle("over", over);
      input.setAttribute("aria-invalid", String(over));
    };
    input.addEventListener("input", update);
    update();
    return counter;
  },
};
