// Niceties only: every page works without this file.
"use strict";

// A tap on the hand's action bar is posted by fetch and the answer swapped
// in, instead of a full page load: on a tablet a navigation costs more than
// the server's whole answer (see docs/decisions.md, "Tap time"). An answer
// that is not the hand page again (the confirm step of an action that ends
// play) is fetched once more by the ordinary form post, so it gets its own
// page and URL.
const swapped = async (form, body, submitter) => {
  const answer = await fetch(form.action, {
    method: "POST", body, credentials: "same-origin", headers: {"X-Tablet-Swap": "1"},
  });
  const url = answer.headers.get("X-Hand-Page");
  if (!answer.ok || !url) return false;
  const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
  if (!doc.querySelector("main")) return false;
  document.title = doc.title;
  document.body.replaceWith(document.adoptNode(doc.body));
  history.replaceState(null, "", url);
  setUp();
  refocus(submitter);
  document.dispatchEvent(new Event("tonk:swapped"));
  return true;
};

// After a tap's answer is swapped in, the keyboard goes on where it was, not
// at the top of the page: the same button when it is there again (another
// draw), else the first action of the new page, else its result.
const refocus = (submitter) => {
  const same = submitter && [...document.querySelectorAll("main button")].find(
    (b) => b.name === submitter.name && b.value === submitter.value && !b.disabled);
  const target = same || document.querySelector("#actions button:not([disabled])") ||
    document.querySelector("#result, #yours, main h1");
  if (!target) return;
  if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.focus();
};

// A card picker is one Tab stop (a roving tabindex): the arrow keys move
// among its cards (up and down by a suit), Home and End to the first and
// last, Space picks one. Without this file every card is a Tab stop.
const rove = (root) => {
  for (const set of root.querySelectorAll("fieldset.picker")) {
    const boxes = [...set.querySelectorAll("input[type=checkbox]")];
    const enabled = boxes.filter((b) => !b.disabled);
    if (!enabled.length) continue;
    const stop = enabled.find((b) => b === document.activeElement) ||
      enabled.find((b) => b.checked) || enabled[0];
    for (const b of boxes) b.tabIndex = b === stop ? 0 : -1;
  }
};

document.addEventListener("keydown", (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || box.type !== "checkbox") return;
  const set = box.closest("fieldset.picker");
  if (!set || event.altKey || event.ctrlKey || event.metaKey) return;
  const boxes = [...set.querySelectorAll("input[type=checkbox]")];
  const row = box.closest(".suit-row");
  const across = row ? row.querySelectorAll("input").length : 1;
  const step = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: across, ArrowUp: -across}[event.key];
  let next = null;
  if (event.key === "Home") {
    next = boxes.find((b) => !b.disabled);
  } else if (event.key === "End") {
    next = boxes.slice().reverse().find((b) => !b.disabled);
  } else if (step) {
    for (let i = boxes.indexOf(box) + step; i >= 0 && i < boxes.length; i += step) {
      if (!boxes[i].disabled) { next = boxes[i]; break; }
    }
  } else {
    return;
  }
  event.preventDefault();
  if (!next) return;
  for (const b of boxes) b.tabIndex = b === next ? 0 : -1;
  next.focus();
});
document.addEventListener("tonk:refreshed", () => rove(document));

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method !== "post") return;
  if (form.dataset.native) return;  // the fallback post below: let it through
  const question = form.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
    return;
  }
  // A second tap while the first is on its way is dropped here; the server's
  // client_id check is what guarantees one action even when this is skipped.
  if (form.dataset.sent) {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "1";
  const submitter = event.submitter;
  if (form.id === "act" && window.fetch && window.DOMParser) {
    event.preventDefault();
    // Read before the buttons are disabled: a disabled button sends no value.
    const body = new FormData(form, submitter);
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    swapped(form, body, submitter).catch(() => {
      // No answer at all (the network is down): offline.js keeps the tap.
      const unsent = new CustomEvent("tonk:unsent", {cancelable: true, detail: {form, body}});
      return !document.dispatchEvent(unsent);
    }).then((done) => {
      if (done) return;
      for (const b of form.querySelectorAll("button")) b.disabled = false;
      form.dataset.native = "1";
      form.requestSubmit(submitter);
    });
    return;
  }
  // Disable after the browser has read the tapped button's value.
  setTimeout(() => {
    for (const b of form.querySelectorAll("button")) b.disabled = true;
  }, 0);
});

// A page the back/forward cache brings back is the page as it was left: a
// form posted from it still greyed, the page perhaps no longer one the
// referee serves (a quick hand's preview once the hand is logged), a dead
// end. Loaded again it is what the referee says now, as Back without the
// cache shows it; the cache keeps only pages that were got, never a post.
window.addEventListener("pageshow", (event) => {
  if (event.persisted && document.querySelector("form[data-sent]")) window.location.reload();
});

// Another tablet's action: live.js brings the page up to date in place.

const setUp = () => {
  rove(document);
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
};

document.addEventListener("DOMContentLoaded", () => {
  setUp();
  // A table opens in the time zone of the device that opens it (its papers
  // print times there): minutes east of UTC.
  for (const field of document.querySelectorAll("input[name=utc_offset]")) {
    field.value = String(-new Date().getTimezoneOffset());
  }
});
