// The offline queue: a dropped network loses no tap. Every page works without
// this file (online only); with it, a tap on a hand's action bar made while
// the network is down is kept on this device (IndexedDB, so it survives a
// closed browser) with its client_id and the sequence it expects, shown at
// once as waiting to send, and posted in order to the JSON API's action
// endpoint as soon as the network is back. The referee judges each one as
// ever: the first it does not log (refused, or another tablet acted in
// between) stops the queue there, said in the referee's own words, and the
// taps after it wait for the host to send them again or delete them. A tap
// sent twice (a lost answer, a reload) carries the same client_id, which the
// service logs once.
"use strict";

(() => {
  const wordsNode = document.getElementById("offline-words");
  const taps = window.TonkTaps;  // static/taps.js: a tap's actions, words and what follows
  if (!wordsNode || !taps || !window.indexedDB || !window.fetch) return;
  let words = {};
  try {
    words = JSON.parse(wordsNode.textContent);
  } catch (err) {
    return;
  }
  const say = (key, params = {}) => taps.fill(words[key] || key, params, words.elision || null);
  const csrf = wordsNode.dataset.csrf || "";
  const lang = document.documentElement.lang || "en";
  const copySeen = document.documentElement.dataset.offlineCopy;  // set by sw.js
  const isCopy = copySeen !== undefined;
  const SINCE = "tonk-offline-since";
  const clock = (when) =>
    new Date(when).toLocaleTimeString(lang, {hour: "2-digit", minute: "2-digit"});

  // ------------------------------------------------------------ the hand shown
  const json = (value, fallback) => {
    try {
      return JSON.parse(value);
    } catch (err) {
      return fallback;
    }
  };
  const readHand = () => {
    const handNode = document.getElementById("offline-hand");
    return handNode && {
    sid: handNode.dataset.session,
    n: Number(handNode.dataset.hand),
    seq: Number(handNode.dataset.seq),
    api: handNode.dataset.api,
    open: handNode.dataset.open === "yes",
    // A seat's phone taps for its own player only.
    only: handNode.dataset.only || null,
    players: json(handNode.dataset.players, []),
    labels: json(handNode.dataset.labels, {}),
    turns: json(handNode.dataset.turns, {after: {}, next: {}}),
    top: handNode.dataset.top || null,
    played: json(handNode.dataset.played, []),
    known: json(handNode.dataset.known, []),
    cards: Object.fromEntries(json(handNode.dataset.deck, [])),
    red: new Set(json(handNode.dataset.red, [])),
    unknown: handNode.dataset.unknown,
    templates: words.actions,
    elision: words.elision || null,
    };
  };
  let hand = readHand();
  // The session of any table page (its address), to hold its other forms.
  const sessionOfPage = (location.pathname.match(/^\/s\/([^/]+)/) || [])[1] || null;

  // ------------------------------------------------------------ IndexedDB
  const STORE = "taps";
  let opened = null;
  const openDb = () => opened || (opened = new Promise((resolve, reject) => {
    const req = indexedDB.open("tonk-offline", 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, {keyPath: "key", autoIncrement: true});
      store.createIndex("hand", ["sid", "hand"]);
      // One tap, one entry: the same tap kept twice is refused here.
      store.createIndex("client_id", "client_id", {unique: true});
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }));
  const asked = (req) => new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const store = async (mode) => (await openDb()).transaction(STORE, mode).objectStore(STORE);
  const everything = async () => asked((await store("readonly")).getAll());
  const ofHand = async (sid, n) => asked((await store("readonly")).index("hand").getAll([sid, n]));
  const keep = async (item) => asked((await store("readwrite")).put(item));
  const drop = async (key) => asked((await store("readwrite")).delete(key));

  // ------------------------------------------------------------ offline or not
  let locked = null;  // the referee's words when it wants the table unlocked again
  const offlineSince = () => Number(localStorage.getItem(SINCE)) || null;
  const showNote = () => {
    const note = document.getElementById("offline-note");
    if (!note) return;
    const since = offlineSince();
    const lines = [];
    if (since) lines.push(say("offline", {time: clock(since)}));
    if (isCopy && copySeen) lines.push(say("copy", {time: clock(copySeen)}));
    note.textContent = lines.join(" ");
    if (locked && sessionOfPage) {
      note.append(document.createTextNode((lines.length ? " " : "") + locked + " "));
      const link = document.createElement("a");
      link.href = `/s/${sessionOfPage}/unlock?next=${encodeURIComponent(location.pathname + location.search)}`;
      link.textContent = say("unlock");
      note.append(link);
    }
    note.hidden = !note.textContent;
  };
  const wentOffline = () => {
    if (!offlineSince()) localStorage.setItem(SINCE, String(Date.now()));
    showNote();
  };
  const cameBack = () => {
    if (!offlineSince()) return;
    localStorage.removeItem(SINCE);
    showNote();
  };
  const isOffline = () => !navigator.onLine || offlineSince() !== null;

  // ------------------------------------------------------------ a tap into words
  // A kept tap as the page says an action (taps.sayAction, from its fields);
  // one kept by an older page, which has only its line, as that line.
  // A take the preview can follow says the card it takes, as the history will.
  let shown = [];  // the preview's kept actions as read, in the queue's order
  const actionWords = (item) => {
    const k = queued.indexOf(item);
    const action = (k >= 0 && shown[k]) || item.action;
    return action && hand ? taps.sayAction(action, hand) : item.text;
  };
  const cardLabel = (c) => (hand ? taps.label(hand)(c) : c);
  // A form's mistake (forms.FormError's code) in the page's words.
  const mistake = ({refusal, player, raw}) =>
    say(refusal, {player, text: `'${raw || ""}'`});

  const randomId = () => {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // a LAN's plain HTTP has no randomUUID
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  };

  // ------------------------------------------------------------ keeping a tap
  let queued = [];  // this hand's kept taps, in order (as last read)
  const refresh = async () => {
    queued = hand ? await ofHand(hand.sid, hand.n) : [];
    draw();
  };

  // A tap (its form's fields) kept: ``clientId``/``expected`` when the tap was
  // posted already and its answer never came (it may have been logged: the
  // same client_id makes a second post count once), else fresh ones.
  const keepTap = async (data, clientId, expected) => {
    const tapped = taps.tapOf(data, hand);
    if (tapped.refusal) {
      flashLine(mistake(tapped));
      return false;
    }
    await refresh();
    // A show with nothing picked from a hand the referee does not know is
    // refused when sent ("wrong_show"): said now, in the referee's words
    // (errors.nothing_picked), rather than kept to stop the queue later.
    const empty = tapped.actions.find((a) => a.verb === "show" && !a.cards.length &&
                                      (a.count === null || a.count === undefined));
    const refused = empty && (words.nothing_picked || [])[foresee().held?.[empty.player]];
    if (refused) {
      flashLine(`${say("stopped", {action: taps.sayAction(empty, hand)})} \u2014 ` +
                taps.fill(refused, {player: empty.player}, words.elision || null));
      return false;
    }
    const last = queued[queued.length - 1];
    const base = expected !== undefined ? expected
      : last ? last.expected_seq + 1 : hand.seq;
    const id = clientId || randomId();
    for (const [k, action] of tapped.actions.entries()) {
      try {
        await keep({sid: hand.sid, hand: hand.n, api: hand.api, action,
                    text: action.line || taps.lineOf(action),
                    client_id: k ? `${id}-${k}` : id, expected_seq: base + k,
                    state: "waiting", error: "", at: Date.now()});
      } catch (err) {
        // The same tap kept already (its client_id): once is enough.
      }
    }
    const form = document.getElementById("act");
    if (form) {
      for (const box of form.querySelectorAll("input[name=card]:checked")) box.checked = false;
      for (const b of form.querySelectorAll("button")) b.disabled = false;
      delete form.dataset.sent;
    }
    await refresh();
    if (!isOffline()) send();
    return true;
  };

  const flashLine = (text) => {
    const main = document.querySelector("main");
    if (!main) return;
    let line = document.getElementById("offline-flash");
    if (!line) {
      line = document.createElement("p");
      line.id = "offline-flash";
      line.className = "flash flash-error";
      line.setAttribute("role", "alert");
      main.prepend(line);
    }
    line.textContent = text;
  };

  // ------------------------------------------------------------ what follows
  // The page's preview of the hand after the kept taps (taps.foresee, as the
  // page was told the turn goes on). A stopped tap, and the ones after it,
  // wait for the host: nothing follows from them; nor from a tap kept by an
  // older page, which has only its line.
  const foresee = () => {
    const kept = [];
    for (const item of queued) {
      if (item.state === "stopped" || !item.action) break;
      kept.push(item.action);
    }
    const served = document.querySelectorAll("#spreads label.spread:not(.pending)").length;
    const next = taps.foresee(hand, kept, served);
    if (kept.length < queued.length && !queued.some((i) => i.state === "stopped")) {
      return {...next, toAct: null, phase: null, verbs: []};
    }
    return next;
  };

  // The stock as the page served it, less the cards the kept taps drew.
  const drawStock = (drawn) => {
    const node = document.getElementById("stock");
    if (!node) return;
    if (node.dataset.served === undefined) node.dataset.served = node.textContent;
    const served = parseInt(node.dataset.served.replace(/\D/g, ""), 10);
    node.textContent = drawn && !Number.isNaN(served)
      ? String(Math.max(0, served - drawn)) : node.dataset.served;
  };

  let actionsAsServed = null;
  const draw = () => {
    if (!hand) return;
    const panel = document.getElementById("offline-queue");
    shown = queued.length ? foresee().shown : [];
    drawPanel(panel);
    drawHistory();
    drawHands();  // first: it writes the players' list again as served
    drawActions();
    showNote();
  };

  // The players' hands as the kept taps leave them (newcomer 43's N5: a phone
  // offline still listed the cards it had laid and discarded, and not the one
  // it drew): each line's number of cards and the cards this page knows, and
  // the picker's marks of who holds which card. The count of a changed hand
  // is left out: the referee says it once the taps are sent.
  let playersAsServed = null;
  const drawHands = () => {
    const list = document.getElementById("players");
    if (!list) return;
    if (playersAsServed === null) playersAsServed = list.innerHTML;
    if (list.innerHTML !== playersAsServed) list.innerHTML = playersAsServed;
    const tiles = [...document.querySelectorAll("#act label.tile")];
    for (const tile of tiles) {
      const face = tile.querySelector("input + span");
      if (tile.dataset.served === undefined) {
        tile.dataset.served = tile.className;
        tile.dataset.mark = face?.querySelector("small")?.textContent ?? "";
      }
      tile.className = tile.dataset.served;
      face?.querySelector("small")?.remove();
      if (face && tile.dataset.mark) face.append(mark(tile.dataset.mark));
    }
    if (!queued.length) return;
    const next = foresee();
    const served = hand.turns;
    for (const li of list.querySelectorAll(":scope > li")) {
      const name = li.querySelector("strong")?.textContent;
      if (!name || !(name in next.held) || !(name in (next.known || {}))) continue;
      const now = next.known[name];
      const was = (served.known || {})[name] || [];
      if (next.held[name] === served.held[name] && now.join() === was.join()) continue;
      const facts = [...li.querySelectorAll(".facts > span:not(.badge)")];
      if (facts[0]) facts[0].textContent = words.card_counts?.[next.held[name]] ?? String(next.held[name]);
      for (const said of facts.slice(1)) said.remove();  // its count: the referee's to say
      li.querySelector(".known")?.remove();
      if (!now.length) continue;
      const div = document.createElement("div");
      div.className = "known";
      for (const [k, c] of now.entries()) {
        const span = document.createElement("span");
        span.className = `c c-${hand.red.has(c) ? "red" : "black"}`;
        span.textContent = cardLabel(c);
        div.append(...(k ? [" ", span] : [span]));
      }
      const more = next.held[name] - now.length;
      if (more > 0) {
        const small = document.createElement("small");
        small.className = "muted";
        small.textContent = say("unknown_more", {num: more});
        div.append(" ", small);
      }
      li.append(div);
    }
    const mine = next.toAct || hand.only;
    for (const tile of tiles) {
      const c = tile.querySelector("input")?.value;
      const holder = Object.keys(next.known || {}).find((p) => next.known[p].includes(c));
      const face = tile.querySelector("input + span");
      tile.classList.remove("tile-mine", "tile-held");
      face?.querySelector("small")?.remove();
      if (!holder) continue;
      tile.classList.add(holder === mine ? "tile-mine" : "tile-held");
      face?.append(mark(holder));
    }
  };
  const mark = (text) => {
    const small = document.createElement("small");
    small.textContent = text;
    return small;
  };

  const button = (text, onClick, kind = "secondary") => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = kind;
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  };

  let shownPanel = null;  // the queue's panel as last drawn
  const drawPanel = (panel) => {
    if (!panel) return;
    shownPanel = panel;
    panel.replaceChildren();
    panel.hidden = !queued.length;
    if (!queued.length) return;
    const h = document.createElement("h2");
    h.textContent = `${say("queue")} (${queued.length})`;
    const list = document.createElement("ol");
    list.className = "queue";
    let stopped = false;
    for (const item of queued) {
      const li = document.createElement("li");
      li.dataset.clientId = item.client_id;
      const line = document.createElement("span");
      line.textContent = actionWords(item);
      li.append(line, " ");
      const mark = document.createElement("small");
      if (item.state === "stopped") {
        stopped = true;
        li.className = "q-stopped";
        mark.textContent = say("stopped", {action: actionWords(item)}) + " \u2014 " + item.error;
        li.replaceChildren(mark);
        const row = document.createElement("div");
        row.className = "row";
        if (item.code === "stale_seq") row.append(button(say("resend"), () => resend(item)));
        row.append(button(say("drop_one"), () => dropOne(item)),
                   button(say("drop_all"), () => dropRest(item), "danger"));
        li.append(row);
        if (queued[queued.length - 1] !== item) {
          const rest = document.createElement("p");
          rest.className = "muted";
          rest.textContent = say("rest");
          li.append(rest);
        }
      } else {
        li.className = stopped ? "q-held" : "q-waiting";
        mark.textContent = `(${say(stopped ? "held" : item.state === "sending" ? "sending"
          : "waiting")})`;
        li.append(mark);
      }
      list.append(li);
    }
    panel.append(h, list);
  };

  const drawHistory = () => {
    for (const old of document.querySelectorAll("li.pending")) old.remove();
    if (!queued.length) return;
    let list = document.querySelector("#history ol.history");
    if (!list) {
      const players = document.getElementById("players");
      if (!players) return;
      const details = document.createElement("details");
      details.id = "history";
      details.open = true;
      const summary = document.createElement("summary");
      summary.textContent = say("history");
      list = document.createElement("ol");
      list.className = "history";
      details.append(summary, list);
      players.after(details);
    }
    // The kept taps may make it scroll: a keyboard reaches it too.
    list.tabIndex = 0;
    for (const item of queued) {
      const li = document.createElement("li");
      li.className = "pending";
      li.textContent = actionWords(item) + " ";
      const mark = document.createElement("small");
      mark.textContent = `(${say("waiting")})`;
      li.append(mark);
      list.append(li);
    }
  };

  // The spreads kept taps lay, to pick for a hit like the others.
  let spreadsAsServed = null;
  const drawSpreads = (laid) => {
    let node = document.getElementById("spreads");
    if (!node) return;
    if (spreadsAsServed === null) spreadsAsServed = node.outerHTML;
    node.outerHTML = spreadsAsServed;
    node = document.getElementById("spreads");
    if (!laid.length) return;
    if (node.tagName !== "DIV") {
      const div = document.createElement("div");
      div.className = "spreads";
      div.id = "spreads";
      node.replaceWith(div);
      node = div;
    }
    for (const sp of laid) {
      const label = document.createElement("label");
      label.className = "spread pending";
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "spread";
      input.value = sp.id;
      input.setAttribute("form", "act");
      const text = document.createElement("span");
      const id = document.createElement("b");
      id.textContent = sp.id;
      text.append(id, ` ${sp.owner}: ${sp.cards.map(cardLabel).join(" ")}`);
      label.append(input, text);
      node.append(label);
    }
  };

  const drawActions = () => {
    const actions = document.getElementById("actions");
    const toActNode = document.getElementById("to-act");
    if (!actions) return;
    if (actionsAsServed === null) {
      actionsAsServed = actions.innerHTML;
      if (toActNode) toActNode.dataset.served = toActNode.textContent;
    }
    // A seat's phone told "your turn" by the page as served: not once its
    // kept taps passed the turn on.
    const yours = document.querySelector("#yours[data-yours=turn]");
    if (!queued.length) {
      if (yours) yours.hidden = false;
      // Written again only when changed: a rewrite takes the keyboard's focus away.
      if (actions.innerHTML !== actionsAsServed) actions.innerHTML = actionsAsServed;
      drawSpreads([]);
      if (toActNode) {
        toActNode.textContent = toActNode.dataset.served;
        toActNode.parentElement.classList.remove("said-later");
      }
      const topNode = document.getElementById("top");
      if (topNode && topNode.dataset.served !== undefined) topNode.innerHTML = topNode.dataset.served;
      drawStock(0);
      return;
    }
    const next = foresee();
    if (yours) yours.hidden = next.toAct !== hand.only;
    if (toActNode) {
      toActNode.textContent = next.toAct || say("next_unknown");
      // A sentence, not a name: its box takes a line of its own (tablet.css).
      toActNode.parentElement.classList.toggle("said-later", !next.toAct);
    }
    for (const li of document.querySelectorAll("#players > li")) {
      const name = li.querySelector("strong");
      li.classList.toggle("acting", !!name && name.textContent === next.toAct);
    }
    const topNode = document.getElementById("top");
    if (topNode) {
      if (topNode.dataset.served === undefined) topNode.dataset.served = topNode.innerHTML;
      if (next.top === undefined) topNode.innerHTML = topNode.dataset.served;
      else topNode.textContent = next.top ? cardLabel(next.top) : "\u2026";
    }
    drawSpreads(next.spreads);
    drawStock(next.drawn);
    for (const box of document.querySelectorAll("#act input[name=card]")) {
      box.disabled = next.played.has(box.value);
      if (box.disabled) box.checked = false;
    }
    actions.replaceChildren();
    const stopped = queued.some((item) => item.state === "stopped");
    const seat = hand.players.indexOf(next.toAct);
    if (!next.phase || seat < 0 || stopped || (hand.only && next.toAct !== hand.only)) {
      const p = document.createElement("p");
      p.className = "muted";
      p.textContent = stopped ? say("send_first")
        : hand.only && next.toAct && next.toAct !== hand.only
          ? say("waiting_for", {name: next.toAct}) : `${say("next_unknown")}.`;
      actions.append(p);
      return;
    }
    const row = document.createElement("div");
    row.className = "actor row";
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = next.toAct;
    row.append(who);
    for (const verb of next.verbs) {
      const b = document.createElement("button");
      b.type = "submit";
      b.name = "act";
      b.value = `${seat}:${verb}`;
      b.dataset.verb = verb;
      if (verb === "drop") b.className = "secondary";
      b.textContent = hand.labels[verb] || verb;
      if (verb === "take" && next.top) b.textContent += ` ${cardLabel(next.top)}`;
      row.append(b);
    }
    actions.append(row);
  };

  // ------------------------------------------------------------ sending
  let sending = false;
  let again = false;
  const post = async (item) => {
    let answer;
    try {
      answer = await fetch(`${item.api}?lang=${encodeURIComponent(lang)}`, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({action: item.text, client_id: item.client_id,
                              expected_seq: item.expected_seq}),
      });
    } catch (err) {
      return {network: true};
    }
    if (answer.ok) return {ok: true};
    let error = {};
    try {
      error = (await answer.json()).error || {};
    } catch (err) {
      // not the API's error body: a proxy's page
    }
    return {status: answer.status, code: error.code || "", message: error.message || answer.statusText};
  };

  // Every kept tap of every table, oldest first; a table's first tap not
  // logged holds its later ones.
  const send = async () => {
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    let logged = 0;
    let stops = 0;
    try {
      do {
        again = false;
        const held = new Set();
        for (const item of await everything()) {
          if (held.has(item.sid)) continue;
          if (item.state === "stopped") {
            held.add(item.sid);
            continue;
          }
          const outcome = await post(item);
          if (outcome.network) {
            wentOffline();
            return;
          }
          cameBack();
          if (outcome.ok) {
            await drop(item.key);
            logged += 1;
            continue;
          }
          if (outcome.status === 401) {
            locked = outcome.message;  // unlocked again, the page sends them
            held.add(item.sid);
            continue;
          }
          if (outcome.status >= 500 || outcome.status === 429) {
            held.add(item.sid);  // the referee's trouble, not the tap's: tried again later
            continue;
          }
          await keep({...item, state: "stopped", code: outcome.code, error: outcome.message});
          held.add(item.sid);
          stops += 1;
        }
      } while (again);
    } finally {
      sending = false;
      await refresh();
      // The page shows the referee's state again: what was logged, or what
      // another tablet logged in between.
      if (((logged || stops) && hand) || (isCopy && !isOffline())) location.reload();
    }
  };

  // The host's answer to a stopped tap. A tap another tablet overtook is
  // posted again with the hand's sequence as it is now (its client_id the
  // same: if it was logged after all, it counts once); the ones after it too.
  const rebase = async (from) => {
    let seq;
    try {
      const answer = await fetch(`/s/${from.sid}/hands/${from.hand}/seq`,
                                 {credentials: "same-origin", cache: "no-store"});
      seq = (await answer.json()).seq;
    } catch (err) {
      wentOffline();
      return false;
    }
    const items = (await ofHand(from.sid, from.hand)).filter((i) => i.key >= from.key);
    for (const [k, item] of items.entries()) {
      await keep({...item, state: "waiting", error: "", code: "", expected_seq: seq + k});
    }
    return true;
  };
  const resend = async (item) => {
    if (await rebase(item)) send();
  };
  const dropOne = async (item) => {
    await drop(item.key);
    const rest = (await ofHand(item.sid, item.hand)).filter((i) => i.key > item.key);
    if (rest.length && await rebase(rest[0])) send();
    else refresh();
  };
  const dropRest = async (item) => {
    for (const i of await ofHand(item.sid, item.hand)) {
      if (i.key >= item.key) await drop(i.key);
    }
    location.reload();
  };

  // ------------------------------------------------------------ taps
  // Before tablet.js (capture, on window): a tap on the action bar while
  // offline, or while earlier taps still wait, joins the queue behind them.
  window.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method !== "post" || form.dataset.native) {
      return;
    }
    const waiting = queued.length > 0;
    if (form.id === "act" && hand && hand.open) {
      if (!waiting && !isOffline()) return;  // tablet.js posts it as always
      event.preventDefault();
      event.stopImmediatePropagation();
      keepTap(new FormData(form, event.submitter));
      return;
    }
    // Anything else (an undo, a void, a new hand) needs the referee now.
    if (isOffline() || (waiting && sessionOfPage)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      flashLine(say(waiting ? "send_first" : "needs_network"));
    }
  }, true);

  // tablet.js posted a tap and got no answer at all: kept, with the tap's own
  // client_id and sequence, for it may have been logged.
  document.addEventListener("tonk:unsent", (event) => {
    const {form, body} = event.detail;
    if (!hand || !hand.open || form.id !== "act") return;
    event.preventDefault();
    wentOffline();
    const seq = String(body.get("expected_seq") || "");
    keepTap(body, String(body.get("client_id") || "") || undefined,
            /^\d+$/.test(seq) ? Number(seq) : undefined);
  });

  // tablet.js swapped in the hand page a tap answered, or live.js the page
  // another device's action changed: the hand as it is now, the kept taps
  // shown on it again. The page comes with its queue panel hidden until the
  // kept taps are read again (IndexedDB answers later): the panel shown until
  // now stands in for it meanwhile, so that a queue being sent stays in sight.
  const redrawn = () => {
    const was = hand;
    hand = readHand();
    const panel = document.getElementById("offline-queue");
    if (shownPanel && panel && panel !== shownPanel && !shownPanel.hidden && was && hand &&
        hand.sid === was.sid && hand.n === was.n) {
      panel.replaceWith(shownPanel);
    }
    actionsAsServed = null;
    spreadsAsServed = null;
    playersAsServed = null;
    refresh();
  };
  document.addEventListener("tonk:swapped", redrawn);
  document.addEventListener("tonk:refreshed", redrawn);

  // ------------------------------------------------------------ the network
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", () => {
    cameBack();
    send();
  });
  // A wifi without a way to the referee still says "online": while the page
  // thinks it is offline, it asks every two seconds.
  setInterval(async () => {
    if (!isOffline() || !navigator.onLine || document.hidden) return;
    try {
      const answer = await fetch("/manifest.webmanifest", {cache: "no-store"});
      if (!answer.ok) return;
    } catch (err) {
      return;
    }
    cameBack();
    send();
  }, 2000);

  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // No worker (a private window, a policy): the queue works while the page is open.
    });
    // A page the worker takes over was loaded past it: it has no copy for
    // offline yet (the first page a device opens), so the worker is asked for one.
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      const worker = navigator.serviceWorker.controller;
      if (worker) worker.postMessage({keep: location.href});
    });
  }
  // A kept copy's lines about the tap before it are old news.
  if (isCopy) for (const line of document.querySelectorAll("main > .flash")) line.remove();
  if (isCopy || !navigator.onLine) wentOffline();
  refresh().then(() => {
    if (!isOffline() || (isCopy && navigator.onLine)) send();
  });
})();
