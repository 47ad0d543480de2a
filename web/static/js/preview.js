/* The host's live camera preview (an <img> on /api/camera/preview.mjpeg), reopened when
 * the companion refuses it.
 *
 * The stream holds a server thread, so past the cap of open streams the companion answers
 * 503 with Retry-After (web/streams.py). An <img> only fires "error" and cannot read the
 * status, so on an error one short probe (?frames=1: it ends after one picture) asks why:
 * 503 shows "busy, retrying" over the picture and opens it again after Retry-After, or
 * longer each time it is refused again (2, 4, ... 30 s; a little random so several hosts
 * do not come back together); a probe that streams means a slot freed meanwhile: the
 * picture is opened again after the same backoff, so a race for that slot never spins.
 * Any other answer (no camera, logged out) is not retried: the notice says why (the
 * companion's error sentence), and closing and opening the card tries again.
 */
"use strict";

const Preview = {
  URL: "/api/camera/preview.mjpeg",
  MAX_WAIT: 30,  // seconds: the longest wait between two tries
  tries: 0,      // refusals in a row
  timer: null,

  img() { return document.getElementById("preview"); },

  /** Start (or restart) the stream. */
  open() {
    clearTimeout(this.timer);
    this.timer = null;
    this.img().src = this.URL + "?t=" + Date.now();
  },

  /** Stop the stream and any pending retry (the card closed). */
  close() {
    clearTimeout(this.timer);
    this.timer = null;
    this.tries = 0;
    this.img().removeAttribute("src");
    this.showBusy(null);
  },

  isOpen() { return Boolean(this.img().getAttribute("src")); },

  /** The <img> failed: ask the companion why, and retry when it was only busy. */
  async failed() {
    if (!this.isOpen() || this.timer) return;
    let response;
    try {
      response = await fetch(this.URL + "?frames=1", {cache: "no-store"});
    } catch (e) {
      return;  // unreachable: the page's banner says so, and "companion:back" reopens
    }
    const retry = response.status === 503 || response.ok;  // ok: a slot freed since
    const why = retry ? "" : await this.reason(response);
    if (response.body && !response.bodyUsed) response.body.cancel().catch(() => {});
    if (!this.isOpen()) return;  // closed meanwhile
    if (retry) {  // soon, not at once
      this.tries += 1;
      const wait = this.wait(response.ok ? null : response.headers.get("Retry-After"));
      this.showBusy(wait);
      this.timer = setTimeout(() => this.open(), wait * 1000);
    } else {  // not retried: say why instead of a busy notice that would stay up
      this.tries = 0;
      this.showNotice("No picture", why || "The companion refused it (" + response.status + ").",
                      "Close and open this card to try again.");
    }
  },

  /** The companion's one-line error in a refusal ({"error": ...}), or "". */
  async reason(response) {
    try {
      const body = await response.json();
      return typeof body.error === "string" ? body.error : "";
    } catch (e) {
      return "";
    }
  },

  /** Seconds before the next try: Retry-After (seconds or a date), at least 2, 4, 8 ...
   *  for the refusals in a row, at most MAX_WAIT, plus up to a fifth at random. */
  wait(retryAfter) {
    let asked = Number(retryAfter);
    if (retryAfter && !Number.isFinite(asked)) asked = (Date.parse(retryAfter) - Date.now()) / 1000;
    const backoff = Math.min(this.MAX_WAIT, 2 ** this.tries);
    const base = Math.min(this.MAX_WAIT, Math.max(Number.isFinite(asked) ? asked : 0, backoff));
    return Math.round(base * (1 + Math.random() / 5));
  },

  /** The picture arrived: the companion had room after all. */
  shown() {
    this.tries = 0;
    this.showBusy(null);
  },

  /** "Busy, retrying in N s" over the picture; null hides it. */
  showBusy(seconds) {
    if (seconds === null) this.showNotice(null);
    else this.showNotice("Busy, retrying", "Too many screens are watching the table right now.",
                         "The picture tries again in " + seconds + " s.");
  },

  /** A notice over the hidden picture (title, why, what to do); a null title hides it. */
  showNotice(title, why, todo) {
    const notice = document.getElementById("preview-busy");
    notice.hidden = title === null;
    this.img().classList.toggle("busy", title !== null);  // not a broken-image icon
    fill(notice, title === null ? null : [
      h("strong", {class: "preview-offline-title", text: title}),
      h("span", {class: "preview-offline-why", text: why}),
      h("span", {class: "preview-offline-todo", text: todo}),
    ]);
  },
};

Preview.img().addEventListener("error", () => Preview.failed());
Preview.img().addEventListener("load", () => Preview.shown());
