// A tap on a hand's action bar as the offline queue keeps it, says it and
// follows it, from what the page was served: the table's deck (page.cards:
// each card as a person reads it, in the order a hand is sorted), the shows the referee
// knows, how the turn goes on (rules.phases.turn_after) and the templates
// of language.action_said. Nothing here reads a log line back: an action is
// its fields ({player, verb, cards, spread, count}, the engine's Action), and
// the line posted is written from them once (lineOf, Action.__str__'s form).
// tests/form_cases.json holds tapOf to forms.tap_actions, and sayAction to
// language.action_words, case by case.
"use strict";

(() => {
  // ------------------------------------------------------------ the form
  // As forms.tap_actions reads the same form (fields read through get and
  // getAll, as FormData has them): the actions of one tap, or the code of the
  // mistake (forms.FormError's) and nothing.
  const tapOf = (form, page) => {
    const act = String(form.get("act") || "");
    if (act === "all:show") {
      const shows = form.getAll("show").map(String);
      const known = page.known.filter((a) => shows.includes(a.line));
      return known.length ? {actions: known} : {actions: [], refusal: "nothing_to_show"};
    }
    if (act === "all:count") {
      const {actions, refusal} = countsOf(form, page);
      return refusal || actions.length ? {actions, refusal} : {actions: [], refusal: "no_counts"};
    }
    const [seat = "", verb = "", named = "", ...more] = act.split(":");
    const player = /^[0-9]+$/.test(seat) ? page.players[Number(seat)] : undefined;
    if (player === undefined || !/^\p{L}+$/u.test(verb) || more.length ||
        (named && (verb !== "take" || !(named in page.cards)))) {
      return {actions: [], refusal: "tap_a_button"};
    }
    const cards = named ? [named] : form.getAll("card").map(String).filter(Boolean);
    if ((verb === "show" || verb === "declare") && !cards.length) {
      const known = page.known.find((a) => a.player === player && a.verb === verb);
      if (known) return {actions: [known]};
    }
    let spread = null;
    if (verb === "hit" || verb === "slap") {
      const raw = String(form.get("spread") || "").trim();
      spread = /^S[0-9]+$/.test(raw) ? Number(raw.slice(1)) : 0;
      if (!spread) return {actions: [], refusal: `spread_${verb}`};
    }
    if (verb === "hit" && !cards.length) return {actions: [], refusal: "card_hit"};
    const first = {player, verb, cards, spread, count: null};
    if (!form.get("confirm")) return {actions: [first]};
    const counts = countsOf(form, page);  // counts typed on a drop's second tap
    return counts.refusal ? {actions: [], refusal: counts.refusal}
      : {actions: [first, ...counts.actions]};
  };

  // forms.count_shows: each count typed on the pad (count<seat>), 1 to 3 digits.
  const countsOf = (form, page) => {
    const actions = [];
    for (const [i, player] of page.players.entries()) {
      const raw = String(form.get(`count${i}`) || "").trim();
      if (!raw) continue;
      if (!/^[0-9]{1,3}$/.test(raw)) return {actions: [], refusal: "count_not_whole", player, raw};
      actions.push({player, verb: "show", cards: [], spread: null, count: Number(raw)});
    }
    return {actions};
  };

  // ------------------------------------------------------------ in words
  // The log line an action is posted as, its cards written by ``card``.
  const lineOf = (a, card = (c) => c) => {
    const parts = [`${a.player}: ${a.verb}`];
    if (a.spread !== null && a.spread !== undefined) parts.push(`S${a.spread}`);
    parts.push(...a.cards.map(card));
    if (a.count !== null && a.count !== undefined) parts.push(`=${a.count}`);
    return parts.join(" ");
  };

  // language.action_shape: which of the page's sentences says an action.
  const shapeOf = (a, page) => {
    if (a.verb === "draw" && (!a.cards.length || (a.cards.length === 1 && a.cards[0] === page.unknown))) {
      return "unseen";
    }
    if (a.count !== null && a.count !== undefined) return "count";
    if (a.spread !== null && a.spread !== undefined) return a.cards.length ? "spread_cards" : "spread";
    return a.cards.length ? "cards" : "alone";
  };

  const label = (page) => (c) => page.cards[c] || c;

  // language.fill: a template's {placeholders} filled, the language's short
  // words joined to a value that starts with a vowel sound (``elision``,
  // language.elision: French "d'Ömer", "qu'Anna"; null: none).
  const fill = (template, params, elision) => {
    let text = template;
    if (elision) {
      const vowel = new RegExp(elision.vowel, "u");
      text = text.replace(new RegExp(elision.before, "giu"), (whole, word, key) => {
        if (!(key in params)) return whole;
        const head = String(params[key]).replace(/^(?:<[^>]*>)+/, "").slice(0, 2)
          .normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
        if (!vowel.test(head)) return whole;
        const short = elision.short[word.toLowerCase()];
        const joined = word[0] === word[0].toUpperCase() && word[0] !== word[0].toLowerCase()
          ? short[0].toUpperCase() + short.slice(1) : short;
        return `${joined}{${key}}`;
      });
    }
    return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  };

  // language.action_words: the line with its cards as read where the
  // templates say so (the verbs' own language), else the sentence.
  const sayAction = (a, page) => {
    const t = page.templates;
    if (!t || t.notation) return lineOf(a, label(page));
    const shape = shapeOf(a, page);
    const fields = {player: a.player, cards: a.cards.map(label(page)).join(" "),
                    spread: a.spread ? `S${a.spread}` : "", count: a.count ?? ""};
    const template = shape === "unseen" || shape === "count" ? t[shape] : (t[shape] || {})[a.verb];
    return template ? fill(template, fields, page.elision || null) : lineOf(a);
  };

  // ------------------------------------------------------------ what follows
  // The hand after the kept taps as far as the page was told how the turn
  // goes on (page.turns): who acts next and with which verbs, the discard
  // pile's top (page.top as served), the cards played, the spreads laid, the
  // cards drawn from the stock, each kept action as read. The referee decides
  // when they are sent.
  const foresee = (page, kept, served) => {
    const turns = page.turns;
    let toAct = turns.to_act;
    let phase = turns.phase;
    let top;  // undefined: as the page shows it
    const played = new Set(page.played);
    const spreads = [];  // laid by kept taps: S(n+1), ...
    let drawn = 0;
    const held = {...turns.held};  // the cards each player holds
    // The cards of each hand this page knows: what the kept taps draw and take
    // comes in, what they lay or discard goes.
    const known = Object.fromEntries(Object.entries(turns.known || {}).map(([p, cs]) => [p, [...cs]]));
    const shown = [];  // each kept action as a person reads it: a take with its card
    // A spread as a person reads it: its cards in the order the deck sorts them.
    const order = Object.keys(page.cards);
    const inOrder = (cards) => [...cards].sort((x, y) => order.indexOf(x) - order.indexOf(y));
    for (const a of kept) {
      const taken = top === undefined ? page.top : top;
      shown.push(a.verb === "take" && !a.cards.length && taken && taken !== page.unknown
        ? {...a, cards: [taken]} : a.verb === "spread" ? {...a, cards: inOrder(a.cards)} : a);
      if (a.verb === "draw") drawn += 1;
      if (a.player in held) {
        if (a.verb === "draw" || a.verb === "take") held[a.player] += 1;
        if (["spread", "hit", "slap", "discard"].includes(a.verb)) held[a.player] -= a.cards.length;
      }
      if (a.player in known) {
        const came = a.verb === "draw" ? a.cards : a.verb === "take" ? [a.cards[0] || taken] : [];
        known[a.player].push(...came.filter((c) => c && c !== page.unknown));
        if (["spread", "hit", "slap", "discard"].includes(a.verb)) {
          known[a.player] = known[a.player].filter((c) => !a.cards.includes(c));
        }
      }
      if (a.verb === "take") {
        if (top) played.delete(top);
        top = null;
      }
      if (a.verb === "spread" || a.verb === "hit" || a.verb === "discard") {
        a.cards.forEach((c) => played.add(c));
      }
      if (a.verb === "spread") {
        spreads.push({id: `S${served + spreads.length + 1}`, owner: a.player, cards: [...a.cards]});
      } else if (a.verb === "hit") {
        const onto = spreads.find((sp) => sp.id === `S${a.spread}`);
        if (onto) onto.cards.push(...a.cards);
      } else if (a.verb === "discard") {
        top = a.cards[0] || null;
      }
      const after = turns.after[a.verb];
      if (after === "play") {
        toAct = a.player;
        phase = "play";
      } else if (after === "pass") {
        toAct = turns.next[a.player] || null;
        phase = toAct ? "start" : null;
      } else if (a.verb !== "slap") {
        toAct = null;  // a drop, a show, a declare: the referee says what follows
        phase = null;
      }
      if (held[a.player] === 0) {
        toAct = null;  // an emptied hand: over (tonk out, out), or as the options say
        phase = null;
      }
    }
    for (const sp of spreads) sp.cards = inOrder(sp.cards);
    for (const p of Object.keys(known)) known[p] = inOrder(known[p]);
    return {toAct, phase, verbs: phase ? turns[phase] : [], top, played, spreads, drawn, shown,
            held, known};
  };

  window.TonkTaps = {tapOf, lineOf, sayAction, foresee, label, fill};
})();
