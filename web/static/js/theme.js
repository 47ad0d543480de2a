/* Dark or light: the phone's preference (prefers-color-scheme) unless this phone chose one
 * with the theme button (kept in localStorage). Loaded in <head> so the page never flashes.
 * Also turns on the big-screen layout for ?tv=1.
 */
"use strict";

const Theme = {
  get() {
    const chosen = localStorage.getItem("companion-theme");
    if (chosen === "light" || chosen === "dark") return chosen;
    return window.matchMedia && matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  },
  apply() {
    const theme = this.get();
    document.documentElement.dataset.theme = theme;
    const meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.setAttribute("content", theme === "light" ? "#f4f6f9" : "#0d1116");
    const button = document.getElementById("theme");
    if (button) button.setAttribute("aria-label", theme === "light" ? "Light theme: tap for dark" : "Dark theme: tap for light");
  },
  toggle() {
    localStorage.setItem("companion-theme", this.get() === "light" ? "dark" : "light");
    this.apply();
  },
};

Theme.apply();
if (/[?&]tv=(1|true|yes)\b/.test(location.search)) document.documentElement.classList.add("tv");
if (window.matchMedia) matchMedia("(prefers-color-scheme: light)").addEventListener("change", () => Theme.apply());
document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("theme");
  if (button) button.addEventListener("click", () => Theme.toggle());
  Theme.apply();
});
