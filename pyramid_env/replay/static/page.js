
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const SUIT = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};
  const WORD = {w: "win", l: "loss", u: "unknown"};
  const STATUS = ["playing", "won", "lost"];
  const SLOTS = 28, WASTE = 28, STOCK = 29, DRAW = 0, RECYCLE = 1;
  const total = D.moves.length;
  const A = D.analysis;
  const losing = A && A.losing !== null ? A.losing : null;
  const $ = (id) => document.getElementById(id);
  let step = 0, timer = null;

  const bit = (mask, i) => Math.floor(mask / 2 ** i) % 2 === 1;  // masks reach 2**28
  const rankText = (name) => (name[0] === "T" ? "10" : name[0]);
  const popcount = (m) => { let n = 0; for (; m; m = Math.floor(m / 2)) n += m % 2; return n; };

  function card(name, extra) {
    const el = document.createElement("div");
    el.className = "card" + (extra ? " " + extra : "");
    if (name === null) { el.classList.add("empty"); return el; }
    if (name === "back") { el.classList.add("back"); return el; }
    const suit = SUIT[name[1]];
    el.dataset.card = name;
    el.dataset.pip = suit;
    el.title = name;
    if (name[1] === "d" || name[1] === "h") el.classList.add("red");
    const r = document.createElement("span"); r.className = "rank"; r.textContent = rankText(name);
    const s = document.createElement("span"); s.className = "suit"; s.textContent = suit;
    el.append(r, s);
    return el;
  }
  const cycle = (i) => D.cards[SLOTS + i];

  function model(k) {
    const [pyr, left, ptr, drawn, recycles, known, w, d, status] = D.pos[k];
    const pyramid = [];
    for (let i = 0; i < SLOTS; i++) pyramid.push(bit(pyr, i) ? D.cards[i] : null);
    const stock = [], waste = [];
    for (let i = 0; i < 24; i++) {
      if (!bit(left, i)) continue;
      if (i >= ptr) stock.push(i);
      else if (!(drawn && i === d)) waste.push(i);
    }
    return {pyr, left, ptr, drawn, recycles, known, w, d, status, pyramid, stock, waste};
  }

  function covered(pyr, i) {
    let r = 0; while ((r + 1) * (r + 2) / 2 <= i) r++;
    if (r === 6) return false;
    const below = (r + 1) * (r + 2) / 2 + (i - r * (r + 1) / 2);
    return bit(pyr, below) || bit(pyr, below + 1);
  }

  function put(spot, el) { spot.replaceChildren(el); }

  function render() {
    const m = model(step);
    const mv = step < total ? D.moves[step] : null;
    const hl = new Set(mv ? mv.slice(2) : []);
    // The pyramid: 7 rows, each card half over the two below it.
    const pyr = $("pyramid");
    pyr.replaceChildren();
    const W = 54, H = 76, G = 8;
    for (let r = 0, i = 0; r < 7; r++) {
      for (let c = 0; c <= r; c++, i++) {
        const name = m.pyramid[i];
        let extra = "slot";
        if (name !== null && covered(m.pyr, i)) extra += " covered";
        if (hl.has(i)) extra += " hl";
        const el = card(name, extra);
        el.dataset.slot = i;
        el.style.left = ((6 - r) * (W + G) / 2 + c * (W + G)) + "px";
        el.style.top = (r * H * 0.55) + "px";
        el.style.zIndex = r + 1;
        pyr.append(el);
      }
    }
    // The stock: face down, or face up where the rules lay its top face up (msc).
    const faceUpTop = D.faceUpTop && m.d >= 0 && m.d >= m.ptr;
    let top = m.stock.length ? card("back") : card(null);
    if (faceUpTop) top = card(cycle(m.d), hl.has(STOCK) ? "hl" : "");
    put($("stock-top"), top);
    $("stock-top").classList.toggle("hl", mv !== null && mv[1] === DRAW);
    $("stock-count").textContent = m.stock.length + " card" + (m.stock.length === 1 ? "" : "s");
    // The drawn card (two-card rules).
    if (D.drawnSpot) {
      $("drawn-pile").hidden = false;
      const name = m.drawn && m.d >= 0 ? cycle(m.d) : null;
      put($("drawn"), card(name, name && hl.has(STOCK) ? "hl" : ""));
    }
    // The waste and its top.
    const wasteTop = m.w >= 0 ? cycle(m.w) : null;
    put($("waste-top"), card(wasteTop, wasteTop && hl.has(WASTE) ? "hl" : ""));
    $("waste-top").classList.toggle("hl", mv !== null && mv[1] === RECYCLE);
    $("waste-count").textContent = m.waste.length + " card" + (m.waste.length === 1 ? "" : "s");
    // The stock as this player knew it, next card first.
    const strip = $("strip");
    strip.replaceChildren();
    for (const i of m.stock) strip.append(card(bit(m.known, i) ? cycle(i) : "back"));
    // Counters, verdict, next move, note.
    $("step").textContent = step;
    $("pass").textContent = (m.recycles + 1) + "/" + (D.passes === null ? "\u221e" : D.passes);
    $("left").textContent = popcount(m.pyr);
    $("status").textContent = STATUS[m.status];
    if (A) {
      const v = WORD[A.verdicts[step]];
      $("verdict").textContent = v;
      $("verdict").className = "badge " + v;
      $("verdict").title = (A.searched[step] === "1" ? "searched" : "follows from the "
        + "positions searched") + "; the solver knows the stock order";
    }
    $("next-move").textContent = mv ? mv[0]
      : (m.status === 1 ? "none: won" : m.status === 2 ? "none: lost" : "none: end of the replay");
    const note = $("note");
    note.hidden = !(losing !== null && step === losing);
    if (!note.hidden) {
      note.textContent = "Move " + (losing + 1) + " (" + D.moves[losing][0] + "): after this "
        + "move the deal could no longer be won; " + A.better + " would have kept it winnable.";
    }
    // Timeline, slider, move list.
    const segs = $("timeline").children;
    for (let i = 0; i < segs.length; i++) segs[i].classList.toggle("cur", i === step);
    $("slider").value = step;
    $("jump").value = step;
    const items = $("moves").children;
    for (let i = 0; i < items.length; i++) {
      items[i].classList.toggle("cur", i === step);
      items[i].classList.toggle("done", i < step);
    }
    if (step < items.length) {
      const box = $("moves"), it = items[step];
      if (it.offsetTop < box.scrollTop || it.offsetTop > box.scrollTop + box.clientHeight - 20)
        box.scrollTop = it.offsetTop - box.clientHeight / 2;
    }
    $("back").disabled = $("first").disabled = step === 0;
    $("forward").disabled = $("last").disabled = step === total;
  }

  function go(k) {
    k = Math.max(0, Math.min(total, Math.round(Number(k))));
    if (Number.isNaN(k)) return;
    step = k;
    render();
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").textContent = "\u25B6 play";
    $("play").setAttribute("aria-pressed", "false");
  }
  function play() {
    if (step === total) go(0);
    pause();
    timer = setInterval(() => { if (step >= total) pause(); else go(step + 1); },
      Number($("speed").value));
    $("play").textContent = "|| pause";
    $("play").setAttribute("aria-pressed", "true");
  }
  const toggle = () => (timer === null ? play() : pause());
  const by = (f) => (e) => { pause(); f(e); };  // a step by hand stops the timer

  // Build the parts that do not change with the step.
  const who = D.agent ? D.agent + " \u00b7 " : "";
  $("meta").textContent = who + D.rulesText + " \u00b7 " + D.deal;
  $("total").textContent = total;
  $("slider").max = total;
  $("jump").max = total;
  const tl = $("timeline");
  for (let i = 0; i <= total; i++) {
    const seg = document.createElement("div");
    if (A) seg.className = A.verdicts[i];
    seg.title = "after move " + i + (A ? ": " + WORD[A.verdicts[i]] : "");
    seg.addEventListener("click", by(() => go(i)));
    tl.append(seg);
  }
  if (A) {
    $("verdict-box").hidden = false;
    const s = $("summary");
    s.hidden = false;
    if (losing !== null) {
      const mark = document.createElement("div");
      mark.id = "losing-marker";
      mark.title = "move " + (losing + 1) + " (" + D.moves[losing][0] + ") lost the deal";
      mark.style.left = ((losing + 1) / (total + 1) * 100) + "%";
      mark.addEventListener("click", by(() => go(losing)));
      $("timeline-box").append(mark);
      s.textContent = "Losing move: " + (losing + 1) + " (" + D.moves[losing][0] + "); "
        + A.better + " kept it winnable. The solver knows the stock order.";
    } else {
      s.textContent = A.verdicts[0] === "l" ? "Not winnable from the start, even knowing the stock."
        : A.verdicts[total] === "w" ? "Winnable throughout." : "No losing move found "
        + "(the solver's limits ran out).";
    }
  }
  const list = $("moves");
  D.moves.forEach((mv, i) => {
    const li = document.createElement("li");
    li.textContent = (i + 1) + ". " + mv[0];
    if (i === losing) li.classList.add("losing");
    li.addEventListener("click", by(() => go(i)));
    list.append(li);
  });
  const click = (id, f) => $(id).addEventListener("click", (e) => {
    e.currentTarget.blur();  // keys then reach the page, not the button
    f();
  });
  click("first", by(() => go(0)));
  click("back", by(() => go(step - 1)));
  click("forward", by(() => go(step + 1)));
  click("last", by(() => go(total)));
  click("play", toggle);
  $("speed").addEventListener("change", (e) => {
    e.target.blur();  // Space then plays or pauses, not reopens the list
    if (timer !== null) play();
  });
  $("slider").addEventListener("input", by((e) => go(e.target.value)));
  $("jump").addEventListener("change", by((e) => go(e.target.value)));
  document.addEventListener("keydown", (e) => {
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const keys = {
      ArrowRight: by(() => go(step + 1)), ArrowLeft: by(() => go(step - 1)),
      Home: by(() => go(0)), End: by(() => go(total)), " ": toggle,
    };
    const f = keys[e.key];
    if (f) { e.preventDefault(); f(); }
  });

  // For tests: what the page shows, from the same model it draws.
  window.replayState = () => {
    const m = model(step);
    return {
      step, total, losingStep: losing, playing: timer !== null, status: STATUS[m.status],
      verdict: A ? WORD[A.verdicts[step]] : null,
      pyramidCards: m.pyramid.filter((c) => c !== null),
      wasteTop: m.w >= 0 ? cycle(m.w) : null,
      second: m.d >= 0 ? cycle(m.d) : null,
      nextMove: step < total ? D.moves[step][0] : null,
    };
  };
  window.replayGo = go;
  render();
})();
