// The number pad of quick logging: counts typed with two taps each.
// Without this file the count fields are plain number fields.
"use strict";

const padUp = (root) => {
  for (const box of root.querySelectorAll("[data-pad]")) {
    if (box.dataset.ready) continue;
    box.dataset.ready = "1";
    const pad = box.querySelector(".pad");
    const fields = [...box.querySelectorAll("input.count")];
    const most = Number(box.dataset.most) || 99;
    const form = box.closest("form");
    let at = fields.findIndex((f) => f.value === "");
    if (at < 0) at = 0;
    // Moved on by itself: a "Next" tapped at once (a score sheet's habit)
    // stays on the count just reached, never skipping a player (issue 35).
    let moved = false;
    const mark = () => fields.forEach((f, i) => f.classList.toggle("current", i === at));
    // The pad stands in for the device's keyboard, which would cover it.
    for (const f of fields) {
      f.inputMode = "none";
      f.addEventListener("focus", () => { at = fields.indexOf(f); moved = false; mark(); });
    }
    const next = () => {
      const later = fields.findIndex((f, i) => i > at && f.value === "");
      if (later >= 0) {
        at = later;
      } else if (at < fields.length - 1) {
        at += 1;
      } else {
        // Every count in: the next tap is the form's own button.
        const go = form && form.querySelector("button[type=submit]:not([data-digit])");
        at = fields.length;
        if (go) go.focus();
      }
      mark();
    };
    pad.hidden = false;
    pad.addEventListener("click", (event) => {
      const b = event.target.closest("button");
      if (!b) return;
      if (at >= fields.length) at = fields.length - 1;
      const f = fields[at];
      const wasMoved = moved;
      moved = false;
      if (b.dataset.digit !== undefined) {
        const value = f.value === "0" ? b.dataset.digit : f.value + b.dataset.digit;
        if (Number(value) > most) return;
        f.value = value;
        // No further digit could fit: on to the next count.
        if (Number(value) * 10 > most || value === "0") {
          next();
          moved = true;
        }
      } else if (b.dataset.back !== undefined) {
        f.value = f.value.slice(0, -1);
      } else if (b.dataset.next !== undefined && !wasMoved) {
        next();
      }
      mark();
    });
    mark();
  }
};

document.addEventListener("DOMContentLoaded", () => padUp(document));
// The hand page is swapped in by tablet.js: set up its pad too.
new MutationObserver(() => padUp(document)).observe(document.documentElement,
                                                     {childList: true, subtree: true});
