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
