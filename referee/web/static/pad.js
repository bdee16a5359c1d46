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
    // Each field's own range (data-low, data-high: its player's hand, or any
    // hand here), and the engine's sentence for a count past it, said on the
    // pad's line (newcomer N10: a digit past the most vanished, or went on
    // into the next player's field, without a word).
    const said = box.querySelector(".pad-said");
    const high = (f) => (f.dataset.high ? Number(f.dataset.high) : most);
    const low = (f) => Number(f.dataset.low) || 0;
    // A count below the least may have a sentence of its own (data-below: a
    // told dropper's 0, who holds cards).
    const say = (f, count) => {
      f.setAttribute("aria-invalid", "true");
      if (!said) return;
      const words = (Number(count) < low(f) && f.dataset.below) || f.dataset.refused || "";
      said.textContent = words.replaceAll("{count}", count);
      said.hidden = !said.textContent;
    };
    // A count put right: the line says another still out of its range, or goes.
    const unsay = (f) => {
      if (!f.getAttribute("aria-invalid")) return;
      f.removeAttribute("aria-invalid");
      const other = fields.find((o) => o.getAttribute("aria-invalid"));
      if (other) say(other, other.value);
      else if (said) said.hidden = true;
    };
    // A count left below its range is said, and kept (a last digit may come later).
    const leave = (f) => {
      if (f && f.value !== "" && Number(f.value) < low(f)) say(f, f.value);
    };
    const next = () => {
      leave(fields[at]);
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
        if (Number(value) > high(f)) {
          say(f, value);  // the count stays as it was, on this player's field
          mark();
          return;
        }
        f.value = value;
        unsay(f);
        // As many digits as its most (or a 0): nothing can follow, on to the
        // next count. A shorter count waits for "Next": a digit after it is
        // this player's, never the next one's.
        if (value.length >= String(high(f)).length || value === "0") {
          next();
          moved = true;
        }
      } else if (b.dataset.back !== undefined) {
        f.value = f.value.slice(0, -1);
        unsay(f);
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
