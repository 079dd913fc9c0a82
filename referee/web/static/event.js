// An event's page follows the event's NDJSON stream (EVENTS.md §9, GET /v1/events/ID/stream):
// after each line it reads the page again and replaces the parts that changed (the
// elements marked data-live-part: the status, the round, the standings, the bracket, each
// round's pairings); when the parts are not the same ones any more (a round was paired, the
// event started) the whole body. Without this script the page reloads itself (<noscript>);
// so does it, in effect, while the server refuses it a stream.
(function () {
  "use strict";
  const root = document.querySelector("[data-event-stream]");
  if (!root || !window.fetch || !window.DOMParser) return;
  const note = root.querySelector("[data-live-note]");
  const parts = (scope) => Array.from(scope.querySelectorAll("[data-live-part]"));
  const names = (scope) => parts(scope).map((part) => part.dataset.livePart).join(" ");
  const say = (words) => { if (note) note.textContent = words; };

  // The page as the server writes it now, its changed parts put in place; whether the
  // page still follows the event (a finished event's page does not).
  async function update() {
    const response = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!response.ok) return true;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const body = root.querySelector("[data-live-body]");
    const freshBody = fresh.querySelector("[data-live-body]");
    if (!body || !freshBody) return true;
    if (names(body) !== names(freshBody)) body.innerHTML = freshBody.innerHTML;
    const found = new Map(parts(fresh).map((part) => [part.dataset.livePart, part]));
    for (const part of parts(root)) {
      const replacement = found.get(part.dataset.livePart);
      if (replacement && replacement.innerHTML !== part.innerHTML) part.innerHTML = replacement.innerHTML;
    }
    document.title = fresh.title;
    const following = fresh.querySelector("[data-event-stream]") !== null;
    say(following ? "Following the event live; updated at " + new Date().toLocaleTimeString() + "."
                  : "The event has finished.");
    return following;
  }

  // One page update at a time: lines that come while one runs make one more afterwards,
  // GAP_MS later (a big event's round ends in many changes: the page is read again a few
  // times a second at most, not once for each).
  const GAP_MS = 250;
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  let running = null;
  let again = false;
  function updateSoon() {
    if (running) { again = true; return running; }
    running = (async () => {
      let following = true;
      try {
        do {
          again = false;
          following = await update();
          if (again && following) await pause(GAP_MS);  // gather the lines still coming
        } while (again && following);
      } catch (error) {
        following = true;  // not read this time (a network error): the next line tries again
      } finally {
        running = null;
      }
      return following;
    })();
    return running;
  }

  // The lines of one stream: a page update after each batch of them; whether to go on.
  async function read(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;  // ended without the finished event (a restart): again
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      buffer = lines.pop();
      const events = lines.filter((line) => line.trim()).map((line) => JSON.parse(line));
      if (events.some((event) => event.error)) return true;
      if (!events.length) continue;
      const finished = events.some((event) => event.status === "finished");
      const following = finished ? await updateSoon() : (updateSoon(), true);
      if (!following || finished) return false;
    }
  }

  // A stream refused (429 or 503: as many follow the event as the server lets): the page
  // is read again every REFRESH_MS instead, as without this script, and the stream tried
  // again after each read.
  const REFRESH_MS = 1000 * (Number(root.dataset.refresh) || 5);
  const refused = (response) => response.status === 429 || response.status === 503;

  async function follow() {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const response = await fetch(root.dataset.eventStream, { headers: { Accept: "application/x-ndjson" } });
        if (response.ok && response.body) {
          attempt = 0;
          say("Following the event live.");
          if (!(await read(response))) return;
        } else if (refused(response)) {
          if (!(await updateSoon())) return;
          say("Many follow this event: the page is read again every " + REFRESH_MS / 1000 +
              " seconds; updated at " + new Date().toLocaleTimeString() + ".");
          await pause(REFRESH_MS);
          attempt = -1;
          continue;
        }
      } catch (error) {
        say("Reconnecting to the event…");
      }
      await pause(Math.min(500 * 2 ** attempt, 15000));
    }
  }

  follow();
})();
