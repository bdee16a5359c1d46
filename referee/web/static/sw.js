// The tablet's service worker (served as /sw.js, so that its scope is the
// whole site): the table's pages as this device last saw them, for when the
// network drops. Pages are asked from the network first (a table's page
// changes with every tap); only when there is no answer at all is the kept
// copy shown, marked so that offline.js can say that it is one and how old.
// Posts, the API and the PDFs are never answered from here.
"use strict";

const PAGES = "tonk-pages-1";
const FILES = "tonk-files-1";
const OFFLINE = "/offline";
// A night's hands and the table's other pages; the oldest go first.
const KEEP = 80;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(PAGES);
    try {
      await cache.add(new Request(OFFLINE, {credentials: "same-origin"}));
    } catch (err) {
      // Installed while the network is down: the page comes with a later visit.
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== PAGES && name !== FILES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The pages a table needs at the table: the home page and a table's pages
// (not its PDFs, not the seq the pages poll, not the club's pages).
const isTablePage = (url) =>
  url.pathname === "/" || (/^\/s\/[^/]+(\/(hands\/\d+|standings|manage))?$/).test(url.pathname);

// A redirect (to the unlock page) or an error is not the page asked for.
const isThePage = (answer) => answer.ok && !answer.redirected && answer.type === "basic";

// The table's event a page shows (its <body>'s data-seq; none: -1).
const seqOf = (text) => Number((text.match(/<body[^>]*\sdata-seq="(\d+)"/) || [])[1] ?? -1);

// A page kept as this device saw it at this moment: the seen-at time the
// offline note says. Never over a copy of a later event of the table (a live
// refresh's answer that arrives after the answer to a tap made meanwhile).
const keepPage = async (url, answer) => {
  const cache = await caches.open(PAGES);
  const text = await answer.text();
  const kept = await cache.match(url, {ignoreVary: true});
  if (kept && Number(kept.headers.get("X-Seq") ?? -1) > seqOf(text)) return;
  const headers = new Headers(answer.headers);
  headers.set("X-Seen-At", new Date().toISOString());
  headers.set("X-Seq", String(seqOf(text)));
  await cache.put(url, new Response(text, {status: answer.status, statusText: answer.statusText,
                                           headers}));
  await trim(cache);
};

// The kept copy, told apart from a fresh page by an attribute on <html>.
const marked = async (kept) => {
  const seen = kept.headers.get("X-Seen-At") || "";
  const text = (await kept.text()).replace("<html ", `<html data-offline-copy="${seen}" `);
  return new Response(text, {status: 200, headers: {"Content-Type": "text/html; charset=utf-8"}});
};

const trim = async (cache) => {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - KEEP))) {
    if (new URL(key.url).pathname !== OFFLINE) await cache.delete(key);
  }
};

const page = async (event) => {
  const cache = await caches.open(PAGES);
  try {
    const answer = await fetch(event.request);
    if (isThePage(answer)) event.waitUntil(keepPage(event.request.url, answer.clone()));
    return answer;
  } catch (err) {
    const kept = await cache.match(event.request.url, {ignoreVary: true});
    if (kept) return marked(kept);
    const fallback = await cache.match(OFFLINE);
    return fallback ? marked(fallback) : Response.error();
  }
};

// The CSS, the scripts and the icons: their URLs carry their content's hash.
const file = async (request) => {
  const cache = await caches.open(FILES);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
};

// A tap tablet.js posts is answered with the hand page it swaps in: kept as
// that page's copy, for the page seen last is that one, not the last load.
const swap = async (event) => {
  const answer = await fetch(event.request);
  const target = answer.headers.get("X-Hand-Page");
  if (answer.ok && target && answer.type === "basic") {
    event.waitUntil(keepPage(new URL(target, self.location.origin).href, answer.clone()));
  }
  return answer;
};

// live.js asks for the page it shows (the table moved on) and swaps it in:
// the page this device sees now, kept before the page has it, so that a
// reload offline right after shows this one, not the one first loaded.
const refreshed = async (request) => {
  const answer = await fetch(request);
  if (isThePage(answer)) await keepPage(request.url, answer.clone());
  return answer;
};

// A page loaded before this worker ran went past it: on a phone that scanned
// its seat link and went straight to its hand, that is the very page to show
// after a reload offline. Taken over (clients.claim), the page asks to be
// kept (offline.js), and is asked for again here. Not done while activating:
// that holds the pages' own loads until it ends, and WebKit failed some.
self.addEventListener("message", (event) => {
  let url;
  try {
    url = new URL(String((event.data && event.data.keep) || ""));
  } catch (err) {
    return;
  }
  if (url.origin !== self.location.origin || !isTablePage(url)) return;
  url.hash = "";
  event.waitUntil((async () => {
    const cache = await caches.open(PAGES);
    if (await cache.match(url.href, {ignoreVary: true})) return;
    try {
      const answer = await fetch(url.href, {credentials: "same-origin"});
      if (isThePage(answer)) await keepPage(url.href, answer);
    } catch (err) {
      // The network dropped already: the page's next visit keeps it.
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.headers.get("X-Tablet-Swap")) {
    event.respondWith(swap(event));
    return;
  }
  if (request.method !== "GET") return;
  if (request.headers.get("X-Live-Refresh") && isTablePage(url)) {
    event.respondWith(refreshed(request));
  } else if (request.mode === "navigate" && isTablePage(url)) {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith("/tablet-static/")) {
    event.respondWith(file(request));
  }
});
