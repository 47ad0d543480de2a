/* Keyboard focus survives a redraw: the host's controls are drawn again after every tap (a
 * die counted, a player picked, a card played), and a control put in place of the focused
 * one is a new element, so focus fell back to the page and a keyboard or switch user had to
 * Tab back through every stop for each die.
 *
 * fill() (live.js) asks FocusKeep.around(el, redraw): when focus was inside `el`, the
 * control that takes its place (the one with the same key) gets it back. A control's key is
 * its `data-key`, else its id, else what it does in its group: its value or label and the
 * group's and section's names ("Card played / Number cards / number-5"), so it is the same
 * in every drawing. When that control is now disabled ("+" once every die is counted) or
 * gone, focus never goes to a button that sends an action (Touch.act, `data-sends`), so one
 * more Enter cannot send what the user did not choose (Record roll, then Bank): a button
 * that sent and is now gone or disabled hands it to the first control of its section that
 * sends nothing (Record roll -> "+ green", the next roll's count); any other control to the
 * next such control of its section, else the one before ("+ red" -> "- red"), else outside.
 */
"use strict";

const FocusKeep = {
  FOCUSABLE: "button, input, select, textarea, summary, a[href], [tabindex]",

  /** A button that sends (Touch.act) is disabled while its request is on its way, which
   *  takes focus from it: it is noted here so the redraw that answers gives focus back. */
  pending: null,

  note(el) { if (el === document.activeElement) this.pending = el; },

  sends(el) { return el.dataset.sends === "1"; },

  /** The title of the section holding `el` ("" if none): the same in every drawing. */
  sectionTitle(el) {
    const section = el.closest(".touch-section, details, section");
    const title = section && section.querySelector(":scope > .touch-title, :scope > summary");
    return title ? title.textContent.trim() : "";
  },

  key(el) {
    if (el.dataset.key) return el.dataset.key;
    if (el.id) return "#" + el.id;
    const own = el.dataset.value || el.getAttribute("aria-label") || el.getAttribute("name") || el.textContent.trim();
    const group = el.closest("[role=group]");
    const section = el.closest(".touch-section, details, section");
    const title = section && section.querySelector(":scope > .touch-title, :scope > summary");
    return [title ? title.textContent.trim() : "", group ? group.getAttribute("aria-label") || "" : "", el.tagName, own].join(" / ");
  },

  canFocus(el) { return !el.disabled && !el.closest("[hidden], [inert]") && el.getClientRects().length > 0; },

  /** Run `redraw` (which replaces what `el` holds) and give focus back as the module says. */
  around(el, redraw) {
    const active = document.activeElement;
    const was = active && active !== document.body && el.contains(active) ? active
      : this.pending && el.contains(this.pending) && (!active || active === document.body) ? this.pending : null;
    if (!was) { redraw(); return; }
    this.pending = null;
    const key = this.key(was);
    const before = [...el.querySelectorAll(this.FOCUSABLE)];
    const place = before.indexOf(was);
    redraw();
    const after = [...el.querySelectorAll(this.FOCUSABLE)];
    let at = after.findIndex((c) => this.key(c) === key);
    if (at >= 0 && this.canFocus(after[at])) {
      after[at].focus({preventScroll: true});
      return;
    }
    // disabled or gone: never onto a button that sends, where one more Enter (a key held
    // down, a double press) would do what nobody chose (Record roll, then Bank)
    if (at < 0) at = Math.min(Math.max(place, 0), after.length - 1);
    const title = this.sectionTitle(was);
    const calm = (c) => !this.sends(c) && this.canFocus(c);
    const near = (c) => calm(c) && this.sectionTitle(c) === title;
    const ahead = after.slice(at), behind = after.slice(0, at).reverse();
    const next = this.sends(was) ? after.find(near)  // its action is done: the section's first
      : ahead.find(near) || behind.find(near) || ahead.find(calm) || behind.find(calm);
    if (next) next.focus({preventScroll: true});
  },
};
