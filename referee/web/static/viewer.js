// The replay viewer's keys and in-place stepping. Every action is also a plain link, so the
// pages work without this script; with it, the fragment #g{game}-a{action} follows the board.
(function () {
  "use strict";
  const viewer = document.querySelector("[data-viewer]");
  if (!viewer) return;
  const frame = viewer.querySelector(".board-frame");
  const now = viewer.querySelector("[data-now]");
  const currentError = viewer.querySelector("[data-current-error]");
  const moves = viewer.querySelector(".moves-column");
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
    reveal(step);
    if (focus) link.focus({ preventScroll: true });
    draw(step);
  }

  function reveal(step) {
    // The step in view within the move list only: the page itself never scrolls, so
    // the board stays where the reader has it.
    const box = moves.getBoundingClientRect();
    const at = step.getBoundingClientRect();
    if (at.top < box.top) moves.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) moves.scrollTop += at.bottom - box.bottom;
  }

  function placeBoard() {
    // A fragment scrolls the page to its step, which can take the board's top (or, on a
    // phone, the whole board) off-screen: the page is scrolled the least that shows the
    // whole board (from its top when it is taller than the window), measured from the
    // page's top (a sticky board stands elsewhere once scrolled); the step is shown
    // within the move list.
    window.scrollTo(0, 0);
    const board = frame.getBoundingClientRect();
    const least = board.bottom + 8 - window.innerHeight;
    window.scrollTo(0, Math.max(0, Math.min(board.top - 8, least)));
    reveal(current);
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
      placeBoard();
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

  document.addEventListener("click", (event) => {
    // A link elsewhere on the page to a step (a finding's "show on the board"): shown
    // here, even when it is the fragment already (the browser would only scroll to it).
    const link = event.target.closest('a[href^="#g"]');
    if (!link || viewer.contains(link) || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const step = document.getElementById(link.getAttribute("href").slice(1));
    if (!step || !step.matches("li.step")) return;
    event.preventDefault();
    if (step !== current) select(step, false);
    placeBoard();
  });

  window.addEventListener("hashchange", followFragment);
  followFragment();
  // the browser may scroll to the fragment once more when the page has loaded
  window.addEventListener("load", followFragment, { once: true });
})();

// A live match's page follows the match's NDJSON stream: the facts change in place, each
// state's last_action is added to the current game's list, and the board is redrawn (the
// latest position only, one drawing at a time). Without this script the page reloads
// itself while the match is on. The words are the server's (referee/web/viewer.py
// action_words, live.html); a browser test holds the two to the same text.
(function () {
  "use strict";
  const live = document.querySelector("[data-live]");
  if (!live) return;
  const board = live.querySelector("[data-live-board]");
  const field = (name) => live.querySelector('[data-field="' + name + '"]');
  const list = field("actions");
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

  list.scrollTop = list.scrollHeight;  // the latest action in view
  const gamesShown = live.querySelectorAll('[data-field="games"] li').length;
  const ended = (status) => status === "finished" || status === "aborted";
  if (ended(live.dataset.status)) return;  // nothing more will happen

  const STATUS = { waiting: "waiting for both bots to join" };
  const CUBE = { double: "doubles to ", beaver: "beavers to ", take: "takes", drop: "drops" };

  function words(action, players) {
    const name = players[action.side];
    if (action.action === "roll") return name + " " + action.dice.join("") + ": " + (action.play || live.dataset.noMove);
    if (action.action === "win") return name + " wins " + action.value + " point" + (action.value === 1 ? "" : "s");
    const cube = CUBE[action.action];
    return name + " " + (cube === undefined ? action.action : cube + (action.value === null ? "" : action.value));
  }

  function choices(state) {
    const named = state.expect.map((a) => (a === "play" && state.dice ? "play " + state.dice.join("-") : a));
    if (named.length < 2) return named.join("");
    return named.slice(0, -1).join(", ") + " or " + named[named.length - 1];
  }

  let latest = null;  // the last state's last_action and players
  let catching = false;

  async function catchUp() {
    // A state was missed (two changes between two looks of the stream): the page's own
    // list and last play, fetched again, then the latest action if the page was older.
    catching = true;
    try {
      const response = await fetch(location.href);
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.querySelector('[data-field="actions"]');
      if (fresh) list.innerHTML = fresh.innerHTML;
      if (list.children.length && field("no-actions")) field("no-actions").remove();
      const roll = page.querySelector('[data-field="last_roll"]');
      if (roll) field("last_roll").textContent = roll.textContent;
    } finally {
      catching = false;
    }
    if (latest && latest.action.number === list.children.length + 1) add(latest.action, latest.players);
  }

  function add(action, players) {
    latest = { action: action, players: players };
    if (catching) return;
    const shown = list.children.length;
    if (action.number <= shown) return;
    if (action.number > shown + 1) {
      catchUp();
      return;
    }
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    const item = document.createElement("li");
    item.textContent = words(action, players);
    list.appendChild(item);
    const none = field("no-actions");
    if (none) none.remove();
    if (atEnd) list.scrollTop = list.scrollHeight;
    if (action.action === "roll") field("last_roll").textContent = item.textContent;
  }

  function show(state) {
    if (ended(state.status) || state.games.length !== gamesShown) {
      // A finished game or match: the server writes the results and the stored match's link.
      window.location.reload();
      return;
    }
    const players = state.players;
    field("status").textContent = STATUS[state.status] || state.status;
    field("game").textContent = state.game;
    field("score").textContent = players.w + " " + state.score[0] + " – " + state.score[1] + " " + players.b;
    field("to_act").textContent = state.to_act ? players[state.to_act] + ": " + choices(state) : "nobody";
    field("ply").textContent = state.ply;
    const clock = field("clock");
    if (clock && state.clock) {
      const left = (side) => players[side] + " " + state.clock.reserves[side].toFixed(1) + " s";
      clock.firstChild.textContent = left("w") + ", " + left("b") + " ";
    }
    if (state.last_action) add(state.last_action, players);
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
