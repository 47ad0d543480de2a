/* Keep the screen on while the page is open: a phone that dims between turns misses the
 * game. Uses the Screen Wake Lock API, which browsers offer only to secure pages (the
 * Pi's own screen on localhost, or HTTPS); elsewhere the phone's own sleep setting rules.
 * The lock is dropped by the browser when the page is hidden and taken again on return.
 * body[data-wake] says "on", "off" (refused) or "unavailable" (read by the browser tests).
 */
"use strict";

const Wake = {
  lock: null,

  async hold() {
    if (!("wakeLock" in navigator)) { document.body.dataset.wake = "unavailable"; return; }
    if (this.lock && !this.lock.released) return;
    try {
      this.lock = await navigator.wakeLock.request("screen");
      document.body.dataset.wake = "on";
      this.lock.addEventListener("release", () => { document.body.dataset.wake = "off"; });
    } catch (err) {
      document.body.dataset.wake = "off";  // battery saver, or the page is not visible
    }
  },
};

Wake.hold();
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") Wake.hold();
});
