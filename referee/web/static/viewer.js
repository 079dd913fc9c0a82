// The replay viewer's keys and in-place stepping. Every action is also a plain link, so the
// pages work without this script; with it, the fragment #g{game}-a{action} follows the board.
(function () {
  "use strict";
  const viewer = document.querySelector("[data-viewer]");
  if (!viewer) return;
  const frame = viewer.querySelector(".board-frame");
  const now = viewer.querySelector("[data-now]");
  const currentError = viewer.querySelector("[data-current-error]");
  let orientation = viewer.dataset.orientation;
  let current = viewer.querySelector("li.step.current");
  let drawing = 0;

  async function draw(step) {
    const query = new URLSearchParams({
      position: step.dataset.position,
      orientation: orientation,
      white: viewer.dataset.white,
      black: viewer.dataset.black,
    });
    if (!step.id.endsWith("-a0")) query.set("before", step.dataset.before);
    const ticket = ++drawing;
    const response = await fetch(viewer.dataset.svg + "?" + query);
    if (response.ok && ticket === drawing) frame.innerHTML = await response.text();
  }

  function address(step) {
    const query = new URLSearchParams(location.search);
    query.delete("a");
    if (orientation === "b") query.set("o", "b"); else query.delete("o");
    const search = query.toString();
    return location.pathname + (search ? "?" + search : "") + "#" + step.id;
  }

  function select(step, focus) {
    if (current) {
      current.classList.remove("current");
      current.querySelector("a").removeAttribute("aria-current");
    }
    current = step;
    const link = step.querySelector("a");
    step.classList.add("current");
    link.setAttribute("aria-current", "step");
    now.textContent = "Game " + step.parentElement.dataset.game + ": " + step.dataset.text;
    currentError.textContent = step.dataset.error || "";
    history.replaceState(null, "", address(step));
    step.scrollIntoView({ block: "nearest" });
    if (focus) link.focus({ preventScroll: true });
    draw(step);
  }

  function move(by) {
    const steps = Array.from(current.parentElement.children);
    const next = steps[steps.indexOf(current) + by];
    if (next) select(next, true);
  }

  function edge(last) {
    const steps = current.parentElement.children;
    select(steps[last ? steps.length - 1 : 0], true);
  }

  function nextError() {
    const steps = Array.from(viewer.querySelectorAll("li.step"));
    const found = steps.slice(steps.indexOf(current) + 1).find((s) => s.classList.contains("illegal"));
    if (found) select(found, true);
    else if (viewer.dataset.nextErrorGame) location.href = viewer.dataset.nextErrorGame;
  }

  function flip() {
    orientation = orientation === "b" ? "w" : "b";
    viewer.dataset.orientation = orientation;
    history.replaceState(null, "", address(current));
    draw(current);
  }

  const keys = {
    ArrowLeft: () => move(-1),
    ArrowRight: () => move(1),
    Home: () => edge(false),
    End: () => edge(true),
    f: flip,
    n: nextError,
  };

  function followFragment() {
    const found = /^#g(\d+)-a(\d+)$/.exec(location.hash);
    if (!found) return;
    const step = document.getElementById("g" + found[1] + "-a" + found[2]);
    if (step && step.matches("li.step")) {
      if (step !== current) select(step, false);
    } else if (viewer.dataset.gameHref && !viewer.querySelector('ol[data-game="' + found[1] + '"]')) {
      location.replace(viewer.dataset.gameHref + found[1] + location.hash);
    }
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select, button, [contenteditable]")) return;
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  viewer.addEventListener("click", (event) => {
    const link = event.target.closest("a");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const step = link.closest("li.step");
    if (step) {
      event.preventDefault();
      select(step, false);
    } else if (link.dataset.key && keys[link.dataset.key]) {
      event.preventDefault();
      keys[link.dataset.key]();
    }
  });

  window.addEventListener("hashchange", followFragment);
  followFragment();
})();

// A live match's page follows the match's NDJSON stream: the facts change in place and the
// board is redrawn (the latest position only, one drawing at a time). Without this script
// the page reloads itself while the match is on.
(function () {
  "use strict";
  const live = document.querySelector("[data-live]");
  if (!live) return;
  const board = live.querySelector("[data-live-board]");
  const field = (name) => live.querySelector('[data-field="' + name + '"]');
  let wanted = null;
  let drawing = false;

  async function redraw() {
    drawing = true;
    while (wanted) {
      const query = new URLSearchParams({
        position: wanted,
        orientation: live.dataset.orientation,
        white: live.dataset.white,
        black: live.dataset.black,
      });
      wanted = null;
      const response = await fetch(live.dataset.board + "?" + query);
      if (response.ok) board.innerHTML = await response.text();
    }
    drawing = false;
  }

  const gamesShown = live.querySelectorAll('[data-field="games"] li').length;
  const ended = (status) => status === "finished" || status === "aborted";
  if (ended(live.dataset.status)) return;  // nothing more will happen

  function show(state) {
    if (ended(state.status) || state.games.length !== gamesShown) {
      // A finished game or match: the server writes the results and the stored match's link.
      window.location.reload();
      return;
    }
    field("status").textContent = state.status;
    field("game").textContent = state.game;
    field("score").textContent = state.score[0] + "–" + state.score[1];
    field("to_act").textContent = state.to_act ? state.players[state.to_act] : "—";
    field("expect").textContent = state.expect.join(", ") || "—";
    field("ply").textContent = state.ply;
    wanted = state.position;
    if (!drawing) redraw();
  }

  async function follow() {
    const response = await fetch(live.dataset.live);
    if (!response.ok || !response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (line) show(JSON.parse(line));
      }
    }
  }

  document.addEventListener("keydown", (event) => {
    if (event.key !== "f" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, textarea, select")) return;
    const flip = live.querySelector('a[data-key="f"]');
    if (flip) window.location.href = flip.href;
  });
  follow();
})();
