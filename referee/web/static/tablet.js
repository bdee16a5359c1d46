// Niceties only: every page works without this file.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // A second tap while the first is on its way is dropped here; the server's
  // client_id check is what guarantees one action even when this is skipped.
  for (const form of document.querySelectorAll("form[method=post]")) {
    form.addEventListener("submit", (event) => {
      const question = form.dataset.confirm;
      if (question && !window.confirm(question)) {
        event.preventDefault();
        return;
      }
      if (form.dataset.sent) {
        event.preventDefault();
        return;
      }
      form.dataset.sent = "1";
      // Disable after the browser has read the tapped button's value.
      setTimeout(() => {
        for (const b of form.querySelectorAll("button")) b.disabled = true;
      }, 0);
    });
  }

  // Several tablets at one table: when another logs an action, reload this
  // screen (or, with cards half picked, say so) instead of waiting for a 409.
  const layout = document.querySelector(".hand-layout[data-poll]");
  if (layout) {
    const seen = layout.dataset.seq;
    const poll = async () => {
      try {
        const answer = await fetch(layout.dataset.poll, {credentials: "same-origin"});
        if (!answer.ok) return;
        const state = await answer.json();
        if (String(state.seq) === seen) return;
        if (document.querySelector("#act input:checked")) {
          document.getElementById("moved").hidden = false;
        } else {
          window.location.reload();
        }
      } catch (err) {
        // Offline for a moment: the next poll tries again.
      }
    };
    setInterval(poll, 1000);
  }

  // Dealing: a card picked for one player (or the upcard) cannot be dealt again.
  const deal = document.querySelector("form.deal-form");
  if (deal) {
    const refresh = () => {
      const taken = new Map();
      for (const box of deal.querySelectorAll(".picker input:checked")) {
        taken.set(box.value, box.name);
      }
      for (const box of deal.querySelectorAll(".picker input")) {
        const owner = taken.get(box.value);
        box.disabled = owner !== undefined && owner !== box.name;
      }
    };
    deal.addEventListener("change", refresh);
    refresh();
  }
});
