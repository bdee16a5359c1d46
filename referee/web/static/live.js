// A table's pages follow the table live, and witness its chain.
// Niceties only: every page works without this file (a reload shows the news).
"use strict";

(() => {
  // The body is read afresh each time: tablet.js swaps in a new one after a tap.
  const data = () => document.body.dataset;
  const sid = data().table;
  if (!sid || !window.fetch) return;
  const key = `tonk-witness-${sid}`;
  const brokenKey = `tonk-witness-broken-${sid}`;
  const shown = () => Number(data().seq || 0);  // the table's event the page shows
  let busy = false;
  let again = false;
  let wanted = 0;  // the newest event heard of
  let leaving = false;

  // ---- the witness: the newest (seq, head) this device saw of the table. A
  // newer one replaces it only when it extends it (its prev is the kept head)
  // or the service says the kept one is still in the chain: a deleted tail or
  // a rewritten record cannot wash out what this device saw.
  const kept = () => {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (err) { return null; }
  };
  const keep = (seq, head) => localStorage.setItem(key, JSON.stringify({seq, head}));
  const warn = (text) => {
    if (document.getElementById("witness-warning")) return;
    const p = document.createElement("p");
    p.id = "witness-warning";
    p.className = "flash flash-error witness";
    p.setAttribute("role", "alert");
    p.textContent = text;
    document.querySelector("main")?.prepend(p);
  };
  const check = async (saw) => {  // true, false, or null: could not ask
    try {
      const url = `${data().consistency}?seq=${saw.seq}&head=${saw.head}`;
      const answer = await fetch(url, {credentials: "same-origin", cache: "no-store"});
      if (!answer.ok) return null;
      return (await answer.json()).consistent;
    } catch (err) {
      return null;
    }
  };
  const broken = (saw) => {
    const text = data().witnessWarning.replace("{seq}", saw.seq);
    localStorage.setItem(brokenKey, text);
    warn(text);
  };
  const advance = async (seq, head, prev) => {
    if (!head) return;
    if (localStorage.getItem(brokenKey)) { warn(localStorage.getItem(brokenKey)); return; }
    const saw = kept();
    if (!saw || !saw.head) { keep(seq, head); return; }
    if (seq === saw.seq && head === saw.head) return;
    if (seq === saw.seq + 1 && prev === saw.head) { keep(seq, head); return; }
    const ok = await check(saw);
    if (ok === false) { broken(saw); return; }
    if (ok && seq > saw.seq) keep(seq, head);
  };
  const witness = () => advance(shown(), data().head, null);

  // ---- a seat's phone following the table to its place (the page's #place)
  const followed = `tonk-followed-${sid}`;
  const goTo = (place) => {
    try {
      sessionStorage.setItem(followed, new URL(place, window.location.href).pathname);
    } catch (err) {
      // no session storage: a page served late stays where it was sent
    }
    window.location.assign(place);
  };
  // A page this phone was sent to by the table, served after the table had
  // moved on again (a hand told while the page was on its way), names the
  // newer place already: no change of place is heard once it is loaded, so
  // it goes on now. A page opened any other way stays where it was opened.
  const goneOn = () => {
    let sent = null;
    try {
      sent = sessionStorage.getItem(followed);
      sessionStorage.removeItem(followed);
    } catch (err) {
      return false;
    }
    const place = document.querySelector("main #place")?.dataset.href;
    if (sent !== window.location.pathname || !place ||
        new URL(place, window.location.href).pathname === window.location.pathname) return false;
    goTo(place);
    return true;
  };

  // ---- the page, brought up to date in place
  const refresh = async () => {
    if (busy) { again = true; return; }
    if (wanted !== -1 && shown() >= wanted) return;  // a tap's answer already showed it
    if (leaving || document.querySelector("form[data-sent]")) return;  // the next page shows it
    busy = true;
    try {
      const answer = await fetch(window.location.href, {
        credentials: "same-origin", cache: "no-store", headers: {"X-Live-Refresh": "1"}});
      if (!answer.ok || answer.redirected) {
        // Unlocked no more (a revoked link): the unlock page says why. Any other
        // redirect (the page is not for now, as the start form during a hand) waits
        // for the reader's own next tap.
        if (answer.redirected && new URL(answer.url).pathname.endsWith("/unlock")) {
          window.location.assign(answer.url);
        }
        return;
      }
      const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
      const fresh = doc.querySelector("main");
      const main = document.querySelector("main");
      if (!fresh || !main) return;
      if (leaving || document.querySelector("form[data-sent]")) return;  // a tap on its way
      // A seat's phone follows the table: a new place (a hand dealt or told)
      // is where it goes, as a Bridgemate moves to the next board.
      const place = fresh.querySelector("#place")?.dataset.href;
      if (place && place !== main.querySelector("#place")?.dataset.href &&
          new URL(place, window.location.href).pathname !== window.location.pathname) {
        goTo(place);
        return;
      }
      // What this device had picked, typed and opened stays.
      const picked = [...main.querySelectorAll("input:checked")].map((i) => [i.name, i.value]);
      const typed = [...main.querySelectorAll("input[type=text][id], textarea[id]")]
        .filter((i) => i.value && i.value !== i.defaultValue).map((i) => [i.id, i.value]);
      const open = [...main.querySelectorAll("details[id][open]")].map((d) => d.id);
      const closed = [...main.querySelectorAll("details[id]:not([open])")].map((d) => d.id);
      const focused = document.activeElement?.id;
      // A button or a card has no id: it is found again by its name and value.
      const was = document.activeElement;
      const named = !focused && was?.name ? [was.tagName, was.name, was.value] : null;
      const x = window.scrollX;
      const y = window.scrollY;
      const warning = document.getElementById("witness-warning");
      // The line about this device's own last tap stays until its next page,
      // until an undo (the host's, say) may have taken that tap back: a phone
      // kept "✓ Ben discards 3♦" over the state before it (newcomer 41's N4);
      // or until the hand shows another action: a phone kept "✓ Zoë discards
      // K♦" eight actions on, over a pile whose top was K♣ (newcomer 43's N6).
      // A table event that is no action (a dispute, an accept) leaves it.
      const undone = (scope) => Number(scope.querySelector("#seq")?.dataset.undone || 0);
      const actions = (scope) => scope.querySelector(".hand-layout")?.dataset.seq;
      const said = fresh.querySelector(".flash") || undone(fresh) > undone(main) ||
        actions(fresh) !== actions(main) ? [] : [...main.querySelectorAll(":scope > .flash")];
      // Lines gone from above the page's first heading would move what is
      // read below them up the screen: the scroll makes up for them.
      const lead = (scope) => {
        const first = scope.querySelector(":scope > :not(.flash)");
        return first ? first.getBoundingClientRect().top - scope.getBoundingClientRect().top : 0;
      };
      const above = lead(main);
      main.replaceWith(document.adoptNode(fresh));
      fresh.prepend(...said);
      for (const [name, value] of picked) {
        for (const box of fresh.querySelectorAll("input")) {
          if (box.name === name && box.value === value && !box.disabled) box.checked = true;
        }
      }
      for (const [id, value] of typed) {
        const input = document.getElementById(id);
        if (input) input.value = value;
      }
      for (const id of open) document.getElementById(id)?.setAttribute("open", "");
      for (const id of closed) document.getElementById(id)?.removeAttribute("open");
      if (warning) fresh.prepend(warning);
      document.title = doc.title;
      data().seq = doc.body.dataset.seq || data().seq;
      if (wanted === -1) wanted = Number(data().seq);
      data().head = doc.body.dataset.head || "";
      if (focused) document.getElementById(focused)?.focus({preventScroll: true});
      if (named) {
        [...fresh.querySelectorAll(named[0])].find((e) => e.name === named[1] &&
          e.value === named[2] && !e.disabled)?.focus({preventScroll: true});
      }
      window.scrollTo(x, y > 0 ? Math.max(0, y + lead(fresh) - above) : 0);
      document.dispatchEvent(new CustomEvent("tonk:refreshed"));
    } catch (err) {
      // offline for a moment: the next change tries again
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  };

  const heard = (seq, head, prev) => {
    advance(seq, head, prev);
    // Fewer events than shown: the chain lost some, fetch whatever it says now.
    wanted = seq < shown() ? -1 : Math.max(wanted, seq);
    if (seq !== shown()) refresh();
  };

  // ---- the stream, and asking every few seconds when there is none
  let polling = null;
  const poll = () => {
    if (polling) return;
    polling = setInterval(async () => {
      if (document.hidden) return;
      try {
        const url = `${data().consistency}?seq=0&head=${"0".repeat(64)}`;
        const answer = await fetch(url, {credentials: "same-origin", cache: "no-store"});
        if (answer.ok) {
          const said = await answer.json();
          heard(said.seq, said.head, null);
        } else if (answer.status === 401 || answer.status === 403) {
          // Its link revoked (the stream would have said so): the page's own
          // answer leads to the unlock page, which says why.
          wanted = -1;
          refresh();
        }
      } catch (err) {
        // offline: next time
      }
    }, 3000);
  };
  // The stream is closed whenever the page is hidden away: a page kept in the
  // browser's back/forward cache would hold its connection open, and with six
  // connections a host the next page load waits for one (a minute in Chrome).
  // It reopens when the page comes back, from the last event it had.
  let source = null;
  let last = null;  // the number of the last event the stream sent
  const follow = () => {
    if (!window.EventSource) { poll(); return; }
    const url = new URL(data().stream, window.location.href);
    if (last !== null) url.searchParams.set("last", last);
    const mine = new EventSource(url);
    source = mine;
    let failures = 0;
    mine.addEventListener("change", (event) => {
      failures = 0;
      if (polling) { clearInterval(polling); polling = null; }
      if (event.lastEventId) last = event.lastEventId;
      const said = JSON.parse(event.data);
      heard(said.seq, said.head, said.prev);
    });
    mine.addEventListener("error", () => {
      if (source !== mine) return;
      failures += 1;
      // The browser reconnects by itself (with Last-Event-ID); meanwhile, ask.
      if (failures >= 2 || mine.readyState === EventSource.CLOSED) poll();
      if (mine.readyState === EventSource.CLOSED) setTimeout(() => { if (source === mine) follow(); }, 5000);
    });
  };
  window.addEventListener("pagehide", () => {
    leaving = true;
    if (source) { source.close(); source = null; }
    if (polling) { clearInterval(polling); polling = null; }
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;  // a fresh load: DOMContentLoaded starts it
    leaving = false;
    if (!source) follow();
  });

  document.addEventListener("DOMContentLoaded", () => {
    witness();
    if (!goneOn()) follow();
  });
})();
