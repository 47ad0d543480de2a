/* Sound (Web Audio, synthesised: no files), vibration and speech cues, with a mute per phone.
 *
 * Cues.play(name) for: count, go, timer-end, bad (red light, bust), good (bank, 21),
 * warn (final round), win, tick. Browsers only start sound after a tap on the page, so
 * the first tap anywhere unlocks it. Mute and speech are kept in localStorage; speech
 * (speechSynthesis, e.g. Sorry!'s running total) is off by default.
 */
"use strict";

const Cues = {
  ctx: null,
  muted: localStorage.getItem("companion-muted") === "1",
  speech: localStorage.getItem("companion-speech") === "1",
  played: [],  // names of the cues played, newest last (read by the browser tests)

  SOUNDS: {
    // [frequency Hz, start s, duration s, wave]
    count: [[660, 0, 0.12, "square"]],
    go: [[880, 0, 0.12, "square"], [1320, 0.12, 0.3, "square"]],
    "timer-end": [[988, 0, 0.18, "triangle"], [988, 0.25, 0.18, "triangle"], [988, 0.5, 0.4, "triangle"]],
    bad: [[220, 0, 0.25, "sawtooth"], [150, 0.22, 0.45, "sawtooth"]],
    good: [[660, 0, 0.1, "triangle"], [880, 0.1, 0.18, "triangle"]],
    warn: [[740, 0, 0.15, "triangle"], [554, 0.18, 0.3, "triangle"]],
    win: [[523, 0, 0.14, "triangle"], [659, 0.14, 0.14, "triangle"], [784, 0.28, 0.14, "triangle"], [1047, 0.42, 0.5, "triangle"]],
    tick: [[1200, 0, 0.04, "sine"]],
  },
  VIBRATE: {count: [60], go: [250], "timer-end": [200, 100, 200, 100, 400], bad: [400, 100, 400],
            good: [80], warn: [150, 80, 150], win: [100, 60, 100, 60, 300]},

  unlock() {
    if (this.ctx || this.muted) { if (this.ctx && this.ctx.state === "suspended") this.ctx.resume(); return; }
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx) this.ctx = new Ctx();
  },

  play(name) {
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    document.body.dataset.cues = this.played.join(" ");  // what the browser tests wait for
    if (this.muted) return;
    if (navigator.vibrate && this.VIBRATE[name]) {
      try { navigator.vibrate(this.VIBRATE[name]); } catch (e) { /* not allowed before a tap */ }
    }
    const ctx = this.ctx;
    if (!ctx || ctx.state !== "running") return;
    const t0 = ctx.currentTime + 0.01;
    for (const [freq, start, duration, wave] of this.SOUNDS[name] || []) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + start + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + duration);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + duration + 0.05);
    }
  },

  say(text) {
    if (this.muted || !this.speech || !window.speechSynthesis) return;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(String(text)));
  },

  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem("companion-muted", muted ? "1" : "0");
    if (!muted) this.unlock();
    this.showButton();
  },

  setSpeech(on) {
    this.speech = on;
    localStorage.setItem("companion-speech", on ? "1" : "0");
    if (on) this.say("Reading totals aloud");
  },

  showButton() {
    const button = document.getElementById("mute");
    if (!button) return;
    button.setAttribute("aria-pressed", this.muted ? "true" : "false");
    button.setAttribute("aria-label", this.muted ? "Sound off: tap to turn on" : "Sound on: tap to mute");
    // a drawn speaker (no emoji font needed): waves when on, a cross when muted
    const marks = this.muted
      ? [svg("path", {d: "M16 9l6 6M22 9l-6 6", fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round"})]
      : [svg("path", {d: "M16 8.5a5 5 0 0 1 0 7M18.8 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round"})];
    fill(button, svg("svg", {viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true"},
      svg("path", {d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor"}), marks));
  },
};

for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => Cues.unlock(), {passive: true});
}
document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("mute");
  if (button) button.addEventListener("click", () => Cues.setMuted(!Cues.muted));
  Cues.showButton();
});
