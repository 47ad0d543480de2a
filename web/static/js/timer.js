/* Timers counted down on the phone from the server's deadline, and called-out countdowns.
 *
 * timerView(timer) builds the big clock of a state's `timer` ({duration, running,
 * deadline, remaining_at_pause}); one ticker updates every running clock when its second turns
 * (at least 4 times a second) using Clock.now() (the server's time), and cues "timer-end" once when one reaches 0.
 * Calls.sync(calls) schedules Toss Your Cookies' "One, two, three, Toss!" (server epoch
 * seconds) so every phone calls them out together; a newer state without them cancels.
 */
"use strict";

/** "0:26", "2:05": minutes and seconds, so a count is never read without its unit; a
 *  countdown of a few seconds (Toss Your Cookies' "One, two, three, Toss!") is called out
 *  as it is counted, "3", "2", "1" (`plain`). */
function formatSeconds(seconds, plain) {
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  if (plain) return String(s);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

/** A clock element for `timer`, or null without one; `id` names it for tests. */
function timerView(timer, id) {
  if (!timer) return null;
  const plain = timer.duration <= 10;
  if (timer.running && typeof timer.deadline === "number") {
    const left = timer.deadline - Clock.now();
    return h("span", {class: "clock running" + (left <= 10 ? " low" : ""), id, role: "timer",
                      dataset: plain ? {deadline: timer.deadline, plain: "1"} : {deadline: timer.deadline},
                      text: formatSeconds(left, plain)});
  }
  const left = typeof timer.remaining_at_pause === "number" ? timer.remaining_at_pause : timer.duration;
  return h("span", {class: "clock paused" + (left <= 0 ? " done" : ""), id, role: "timer",
                    text: formatSeconds(left || 0, plain)});
}

/** Whether `timer` waits to be started: never run yet at its full time (a Paper Tales
 *  phase before the host starts it), not paused part way. */
function timerWaits(timer) {
  return Boolean(timer && !timer.running && timer.remaining_at_pause > 0
                 && timer.remaining_at_pause >= timer.duration);
}

const Ticker = {
  ended: new Set(),
  /** Update every running clock, then sleep until the next one changes its second (at most
   *  250 ms), so all phones turn their digits at the same moment rather than up to a
   *  quarter second apart. */
  run() {
    const wait = this.tick();
    setTimeout(() => this.run(), wait);
  },
  tick() {
    const now = Clock.now();
    let wait = 250;
    for (const el of document.querySelectorAll("[data-deadline]")) {
      const deadline = Number(el.dataset.deadline);
      const left = deadline - now;
      const text = formatSeconds(left, el.dataset.plain === "1");
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left <= 10);
      if (left <= 0 && !this.ended.has(deadline)) {
        this.ended.add(deadline);
        el.classList.add("done");
        if (left > -2) Cues.play("timer-end");  // not for a deadline long gone (a reconnect)
      }
      const toNext = left > 0 ? ((left % 1) || 1) * 1000 + 5 : 250;
      wait = Math.min(wait, toNext);
    }
    return Math.max(20, wait);
  },
};
Ticker.run();

const Calls = {
  timers: new Map(),  // "say@at" -> timeout id

  sync(calls) {
    const keep = new Set();
    for (const call of calls || []) {
      const key = call.say + "@" + call.at;
      keep.add(key);
      if (this.timers.has(key)) continue;
      const wait = (call.at - Clock.now()) * 1000;
      if (wait < -400) continue;  // already past: do not call it late
      this.timers.set(key, setTimeout(() => this.call(call.say), Math.max(0, wait)));
    }
    for (const [key, id] of this.timers) {
      if (keep.has(key)) continue;
      // a call due now stays: the server's next state can beat this phone's own timer
      if (Math.abs(Number(key.slice(key.lastIndexOf("@") + 1)) - Clock.now()) < 0.25) continue;
      clearTimeout(id); this.timers.delete(key);
    }
  },

  call(say) {
    const go = /toss/i.test(say);
    Cues.play(go ? "go" : "count");
    let el = document.getElementById("callout");
    if (!el) {
      el = h("div", {id: "callout", class: "callout", "aria-live": "assertive"});
      document.body.append(el);
    }
    el.textContent = say;
    el.className = "callout show" + (go ? " go" : "");
    clearTimeout(this.hide);
    this.hide = setTimeout(() => { el.className = "callout"; }, go ? 1600 : 800);
  },
};
