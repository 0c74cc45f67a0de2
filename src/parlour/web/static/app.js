// parlour's page: the lobby, the games (SVG boards) and the replays.  Plain JavaScript,
// no build step.  The server decides everything: this page sends move requests and draws
// what it is told (positions, numbered events); a gap in the numbers asks for a fresh state.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1); // a line's start
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function el(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, text, parent) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// ------------------------------------------------------------------ the lobby

async function lobby() {
  $("lobby").hidden = false;
  const games = await (await fetch("/api/catalogue")).json();
  const select = $("game-name");
  for (const game of games) {
    const option = html("option", game.title === game.name ? game.name : `${game.title} (${game.name})`, select);
    option.value = game.name;
  }
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const showOptions = () => {
    drawOptions(byName[select.value]);
    drawLevels(byName[select.value]);
  };
  select.addEventListener("change", showOptions);
  select.value = "mancala";
  showOptions();
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(byName[select.value]);
  });
  $("more-games").addEventListener("click", () => listGames(lobbyPage + 1));
  $("upload").addEventListener("change", () => uploadGame($("upload").files[0]));
  listGames(0);
  getReady(showReadyInLobby);
}

function drawLevels(game) {
  // The levels the game's computer really has, each with what it does.
  const select = $("level");
  const before = select.value;
  select.replaceChildren(...game.levels.map((level) => {
    const option = html("option", level.name);
    option.value = level.name;
    return option;
  }));
  const names = game.levels.map((level) => level.name);
  select.value = names.includes(before) ? before : names.includes("3") ? "3" : names[0] || "";
  const about = () => {
    const level = game.levels.find((l) => l.name === select.value);
    $("level-about").textContent = level ? level.about : "";
  };
  select.onchange = about;
  about();
}

async function getReady(show) {
  // The server compiles its engines at start: say so, and how far, until it is ready.
  for (;;) {
    const ready = await (await fetch("/api/ready")).json();
    S.warming = ready.ready ? null : `The server is getting ready: preparing the computer's play (${ready.done} of ${ready.of} games done, ${ready.doing} next).`;
    show();
    if (ready.ready) return;
    await sleep(1000);
  }
}

function showReadyInLobby() {
  $("getting-ready").hidden = !S.warming;
  $("getting-ready").textContent = S.warming ? S.warming + " A game started now may wait for it." : "";
}


function drawOptions(game) {
  $("game-summary").textContent = game.summary;
  const box = $("options");
  box.replaceChildren(html("legend", "Rules"));
  for (const option of game.options) {
    if (option.name === "first") continue; // "who moves first" below
    const label = html("label", option.name.replaceAll("_", " ") + " ", box);
    label.title = option.help;
    let input;
    if (option.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = option.default === true;
    } else if (option.choices.length) {
      input = document.createElement("select");
      for (const choice of option.choices) html("option", choice, input).value = choice;
      input.value = option.default;
    } else {
      input = document.createElement("input");
      input.type = option.kind === "int" ? "number" : "text";
      if (option.kind === "int") {
        input.min = option.minimum;
        input.max = option.maximum;
      }
      input.value = option.default === null ? "" : option.default;
      if (option.nullable) input.placeholder = "none";
    }
    input.dataset.option = option.name;
    input.dataset.kind = option.kind;
    input.dataset.nullable = option.nullable;
    label.appendChild(input);
  }
  const watched = game.watched; // it plays itself: nobody to seat, nothing to time
  $("opponent-box").hidden = watched;
  $("first-box").hidden = watched;
  $("clock-box").hidden = watched;
  $("start").textContent = watched ? "Deal and watch" : "Start";
}

async function startGame(game) {
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") options[name] = input.checked;
    else if (input.value === "") {
      if (input.dataset.nullable === "true") options[name] = null;
    } else options[name] = input.dataset.kind === "int" ? Number(input.value) : input.value;
  }
  const form = new FormData($("new-game"));
  const request = { game: game.name, options, opponent: form.get("opponent"), first: form.get("first") };
  request.level = form.get("level");
  if (form.get("seconds")) request.seconds = Number(form.get("seconds"));
  if (form.get("minutes")) {
    request.minutes = Number(form.get("minutes"));
    request.increment = Number(form.get("increment") || 0);
  }
  const response = await fetch("/api/games", { method: "POST", body: JSON.stringify(request) });
  const made = await response.json();
  if (!response.ok) {
    $("lobby-error").textContent = made.error;
    return;
  }
  if (made.token) localStorage.setItem("parlour-seat-" + made.id, made.token);
  if (made.invite) sessionStorage.setItem("parlour-invite-" + made.id, made.invite);
  location.assign("/game/" + made.id);
}

let lobbyPage = 0;

async function listGames(page) {
  // One page of each list at a time (the server pages them); "More games" adds the next.
  const { playing, finished, more } = await (await fetch("/api/games?page=" + page)).json();
  lobbyPage = page;
  const names = (g) => `${capital(g.title || g.game)}: ${g.names[0]} vs ${g.names[1]}`;
  for (const game of playing) {
    const item = html("li", "", $("playing"));
    const link = html("a", names(game) + " (watch)", item);
    link.href = "/game/" + game.id;
    if (game.clock) item.append(" — " + clockTerms(game));
  }
  if (!page && !playing.length) html("li", "none at the moment", $("playing"));
  for (const game of finished) {
    const item = html("li", "", $("finished"));
    const link = html("a", names(game), item);
    link.href = "/replay/" + game.id;
    item.append(" — " + game.words);
  }
  if (!page && !finished.length) html("li", "none yet", $("finished"));
  $("more-games").hidden = !more;
}

const MAX_UPLOAD = 64 * 1024; // the server's limit too (parlour.web.upload)

async function uploadGame(file) {
  // A game file replayed here: the server reads and checks it, and keeps nothing.
  $("upload-error").textContent = "";
  if (!file) return;
  if (file.size > MAX_UPLOAD) return ($("upload-error").textContent = `${file.name} is too long: ${file.size} bytes, the limit is ${MAX_UPLOAD}.`);
  const url = "/api/upload?name=" + encodeURIComponent(file.name);
  const body = await file.arrayBuffer();
  const response = await fetch(url, { method: "POST", body });
  const answer = await response.json();
  if (!response.ok) return ($("upload-error").textContent = answer.error);
  $("lobby").hidden = true;
  const review = () => fetch(url.replace("/api/upload", "/api/upload/analysis"), { method: "POST", body });
  logLine(`Replaying ${file.name}.`);
  showRecord(answer, review);
}

// ------------------------------------------------------------------ a game

const S = {
  id: null, token: null, ws: null, n: 0, table: null, you: [], position: null,
  shown: null, moves: [], movers: [], result: null, queue: [], busy: false, fatal: false, pending: false, warming: null,
  clock: null, clockAt: 0, offer: null,
  warShown: 0, war: { counts: [0, 0], last: null, paused: false, steps: 0 },
};

function tableInfo(info) {
  S.table = info;
  const title = info.title || info.game; // a record kept before titles were
  $("title").textContent = `${capital(title)}: ${seatName(0)} vs ${seatName(1)}`;
  document.title = `parlour: ${title}`;
  $("download-box").hidden = info.kind === "war" || info.id === "upload"; // a file replayed: the file is its own
  $("download").href = `/api/games/${info.id}/saved`;
  const form = (info.forms || [])[0];
  $("download-form").hidden = !form;
  if (form) {
    $("download-form").href = `/api/games/${info.id}/form`;
    $("download-form").textContent = `as ${form}`;
  }
  if (S.rules !== info.game) showRules(info.game);
}

async function showRules(name) {
  // The game's own rules text, folded away under the board.
  S.rules = name;
  const response = await fetch("/api/rules/" + name);
  if (!response.ok) return;
  $("rules").replaceChildren(...markdown((await response.json()).markdown));
  $("rules-box").hidden = false;
}

function markdown(text) {
  // The little Markdown the rules are written in, line by line: headings, paragraphs,
  // lists and code blocks, each made as text (never as HTML); ** and ` marks dropped.
  const plain = (line) => line.replaceAll("**", "").replaceAll("`", "");
  const blocks = [];
  let para = [], list = null, code = null;
  const flush = () => {
    if (para.length) blocks.push(html("p", plain(para.join(" "))));
    para = [];
  };
  for (const line of text.split("\n")) {
    if (code !== null) {
      if (line.startsWith("```")) {
        blocks.push(html("pre", code.join("\n")));
        code = null;
      } else code.push(line);
      continue;
    }
    const heading = /^(#+) (.*)/.exec(line);
    const item = /^[-*] (.*)/.exec(line);
    if (line.startsWith("```") || heading || item || !line.trim()) flush();
    if (line.startsWith("```")) {
      code = [];
      list = null;
    } else if (heading) {
      blocks.push(html(heading[1].length === 1 ? "h3" : "h4", plain(heading[2])));
      list = null;
    } else if (item) {
      if (!list) blocks.push((list = document.createElement("ul")));
      html("li", plain(item[1]), list);
    } else if (!line.trim()) list = null;
    else if (list) list.lastChild.textContent += " " + plain(line.trim());
    else para.push(line.trim());
  }
  flush();
  return blocks;
}

function seatName(seat) {
  const name = S.table.names[seat];
  return S.you.length === 1 && S.you[0] === seat ? `${name} (you)` : name;
}

function playGame(id) {
  S.id = id;
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("seat")) {
    localStorage.setItem("parlour-seat-" + id, hash.get("seat"));
    history.replaceState(null, "", location.pathname);
  }
  S.token = localStorage.getItem("parlour-seat-" + id);
  const invite = sessionStorage.getItem("parlour-invite-" + id);
  if (invite) {
    $("invite").hidden = false;
    $("invite-link").value = `${location.origin}/game/${id}#seat=${invite}`;
    $("copy-invite").onclick = () => navigator.clipboard && navigator.clipboard.writeText($("invite-link").value);
  }
  $("table").hidden = false;
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) $("animate").checked = false;
  wireControls();
  setInterval(drawClocks, 200);
  connect();
  getReady(() => S.table && S.table.kind !== "war" && status());
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${S.id}`);
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: S.token }));
  ws.onmessage = (message) => receive(JSON.parse(message.data));
  ws.onclose = () => {
    if (S.fatal || S.result) return;
    say("The connection was lost: reconnecting…");
    setTimeout(connect, 1000);
  };
}

function send(message) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(message));
}

function receive(message) {
  S.pending = false;
  switch (message.type) {
    case "state":
      return fresh(message);
    case "event":
      if (message.n !== S.n + 1) return send({ type: "sync" }); // missed one: the whole game again
      S.n = message.n;
      if (message.position) S.position = message.position;
      if (message.clock) setClock(message.clock);
      if (message.kind === "over") {
        S.result = message.result;
        stopClock(message.result);
      }
      S.queue.push(message);
      return drain();
    case "error":
      if (message.fatal) {
        S.fatal = true; // the game is gone: nothing on the page may look playable
        if (S.shown) draw(false);
        else $("board").replaceChildren();
      }
      say(message.message, true);
      logLine("Refused: " + message.message);
      if (message.message.startsWith("stale")) send({ type: "sync" });
      return;
    case "started":
      S.table.started = true;
      setClock(message.clock);
      draw(false);
      return status();
    case "offer":
      S.offer = message.offer;
      if (message.words) {
        logLine(message.words);
        announce(message.words);
      }
      return draw(false);
    case "rematch":
      if (message.token) localStorage.setItem("parlour-seat-" + message.id, message.token);
      S.fatal = true; // this page's game is over: the new one is elsewhere
      return location.assign("/game/" + message.id);
    case "hint":
      $("hint-text").textContent = `Hint: ${message.move}` + (message.value === null ? "" : ` (value ${message.value > 0 ? "+" : ""}${message.value})`);
      return;
    case "record":
      return showRecord(message.record);
  }
}

function fresh(message) {
  S.n = message.n;
  S.you = message.you;
  tableInfo(message.table);
  S.result = message.result;
  S.queue = [];
  if (message.table.kind === "war") {
    $("war-controls").hidden = false;
    $("animate-box").hidden = true;
    $("moves").parentElement.querySelector("h2").hidden = true;
    for (const event of message.now.log.slice(S.warShown)) S.queue.push(event);
    drain();
    return;
  }
  S.position = S.shown = message.now.position;
  S.moves = message.now.moves;
  S.movers = message.now.movers;
  S.offer = message.now.offer;
  setClock(message.now.clock);
  if (S.result) stopClock(S.result);
  drawMoves();
  draw();
}

async function drain() {
  if (S.busy) return;
  S.busy = true;
  try {
    while (S.queue.length) await show(S.queue.shift());
  } finally {
    S.busy = false;
  }
  draw();
}

async function show(event) {
  if (S.table.kind === "war") return showWar(event);
  switch (event.kind) {
    case "moved": {
      const who = S.table.names[event.player];
      const told = `${who} played ${event.move}.` + (event.words.length ? " " + event.words.join(" ") : "");
      logLine(told);
      if (!S.you.includes(event.player) || S.you.length > 1) announce(told); // the other side's move, read out
      else if (event.words.length) announce(event.words.join(" "));
      if (event.sown && $("animate").checked) await sow(S.shown, event.sown, event.move, event.player);
      S.shown = event.position;
      S.moves.push(event.move);
      S.movers.push(event.player);
      drawMoves();
      if (event.words.length) {
        draw(false);
        await sleep($("animate").checked ? 700 : 0);
      }
      return;
    }
    case "taken_back":
      S.moves = S.moves.slice(0, event.moves);
      S.movers = S.movers.slice(0, event.moves);
      S.shown = event.position;
      logLine(`${S.table.names[event.player]} took back a turn.`);
      announce(`${S.table.names[event.player]} took back a turn.`);
      drawMoves();
      return;
    case "over":
      logLine(event.result.words);
      return;
  }
}

// ------------------------------------------------------------------ clocks and offers

function setClock(clock) {
  // The server's clock (each seat's time left, the seat whose time runs), counted down
  // here from the moment it came.
  if (!clock) return;
  S.clock = { left: [...clock.left], running: clock.running };
  S.clockAt = performance.now();
  drawClocks();
}

function stopClock(result) {
  if (!S.clock) return;
  S.clock = { left: [0, 1].map(clockLeft), running: null };
  if (result.reason === "ran out of time" && result.forfeit !== null) S.clock.left[result.forfeit] = 0;
  drawClocks();
}

function clockLeft(seat) {
  const c = S.clock;
  return Math.max(0, c.left[seat] - (c.running === seat ? (performance.now() - S.clockAt) / 1000 : 0));
}

function clockTerms(game) {
  // A game's clock in the lobby: minutes each and the increment, then each seat's time left.
  const [base, increment] = game.clock;
  const terms = `${+(base / 60).toFixed(2)} min${increment ? ` + ${increment} s a move` : ""}`;
  return `${terms}: ${game.left.map(clockText).join(" to ")} left`;
}

function clockText(seconds) {
  if (seconds < 10) return seconds.toFixed(1);
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function drawClocks() {
  $("clocks").hidden = !S.clock;
  if (!S.clock) return;
  for (const seat of [0, 1]) {
    const left = clockLeft(seat);
    const face = $("clock-" + seat);
    face.textContent = `${shortName(seat)} ${clockText(left)}`;
    face.setAttribute("aria-label", `${S.table.names[seat]}'s clock: ${Math.ceil(left)} seconds left`);
    face.classList.toggle("running", S.clock.running === seat);
    face.classList.toggle("low", left < 10);
  }
}

const OFFERED = { takeback: "to take back a move", draw: "a draw", rematch: "a rematch" };

function drawOffer() {
  // An offer of the other person's, to answer; or one's own, waiting for the answer.
  const offer = S.offer;
  $("offer").hidden = !offer || !S.you.length;
  if (!offer || !S.you.length) return;
  const theirs = !S.you.includes(offer.seat);
  const who = S.table.names[offer.seat];
  $("offer-text").textContent = theirs ? `${who} offers ${OFFERED[offer.what]}.` : `You offer ${OFFERED[offer.what]}: waiting for the answer.`;
  $("accept").hidden = !theirs;
  $("refuse").hidden = !theirs || offer.what === "rematch";
}

function say(text, alarm = false) {
  $("status").textContent = text;
  $("status").style.borderLeftColor = alarm ? "var(--bad)" : "var(--accent)";
}

function announce(text) {
  // What happened, kept in a live region of its own (the status line changes at once).
  $("announce").textContent = text;
}

function logLine(text) {
  const item = html("li", text, $("log"));
  item.scrollIntoView({ block: "nearest" });
}

function shortName(seat) {
  // "Computer (level 3)" is "Computer" in the move list.
  return S.table.names[seat].split(" (")[0];
}

function drawMoves() {
  $("moves").replaceChildren(...S.moves.map((m, i) => html("li", `${shortName(S.movers[i])}: ${m}`)));
}

function mine() {
  const p = S.position;
  const ready = S.position === S.shown && !S.busy && !S.pending && !S.fatal;
  return ready && !S.result && p && !p.over && S.you.includes(p.to_move);
}

function status() {
  if (S.fatal) return;
  if (S.result) return say(S.result.words);
  const p = S.position;
  if (!p) return;
  const mover = S.table.names[p.to_move];
  if (!S.table.started && S.you.length) return say("Waiting for your opponent to open the link…");
  if (mine()) {
    const how = { sowing: "choose a pit (click it or type its letter)", ayo: "choose a house (click it or type its number)", gomoku: "choose a point (click it, type it like H8, or move with the arrow keys and press Enter)" }[p.kind];
    return say(`${S.you.length > 1 ? mover + ", your" : "Your"} move: ${how}.`);
  }
  const computer = S.table.hint && !S.you.includes(p.to_move); // a person's move waits on no compile
  const waiting = S.warming && computer ? " " + S.warming + " Its first move waits for that." : "";
  say(`${mover} to move.${waiting}`);
}

function draw(withStatus = true) {
  if (S.table.kind === "war") return drawWar();
  const p = S.shown;
  const live = mine();
  const board = { sowing: drawSowing, ayo: drawAyo, gomoku: drawGomoku }[p.kind](p, live);
  const focused = document.activeElement;
  const hadFocus = !focused || focused === document.body || $("board").contains(focused);
  $("board").replaceChildren(board);
  const target = board.querySelector("[data-cursor]") || board.querySelector(".live");
  if (hadFocus && live && target && !S.replaying) target.focus({ preventScroll: true });
  const seated = S.you.length > 0 && !S.result && !S.fatal;
  $("move-form").hidden = !seated;
  $("resign").hidden = !seated;
  $("hint").hidden = !seated || !S.table.hint;
  $("undo").hidden = !seated || !S.table.undo;
  const offers = seated && S.table.offers && S.table.started;
  $("offer-takeback").hidden = $("offer-draw").hidden = !offers;
  $("offer-takeback").disabled = !!S.offer || !S.movers.some((seat) => S.you.includes(seat));
  $("offer-draw").disabled = !!S.offer;
  $("rematch").hidden = !(S.you.length && S.result && !S.replaying);
  const asked = S.offer && S.offer.what === "rematch" && S.you.includes(S.offer.seat);
  $("rematch").disabled = !!asked;
  drawOffer();
  $("animate-box").hidden = p.kind !== "sowing" || !!S.replaying; // a replay jumps
  $("hint").disabled = !live;
  $("undo").disabled = !live || !S.movers.some((seat) => S.you.includes(seat));
  $("move-label").textContent = { sowing: "Pit letter", ayo: "House number", gomoku: "Point (like H8)" }[p.kind];
  if (withStatus) status();
}

function play(move) {
  if (!mine()) return;
  send({ type: "move", move, at: S.n });
  S.pending = true; // one move a turn: the board waits for the server's answer
  draw();
}

function wireControls() {
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-input").value.trim();
    if (!text) return;
    send({ type: "move", move: text, at: S.n });
    $("move-input").value = "";
  });
  $("hint").onclick = () => { $("hint-text").textContent = "Thinking…"; send({ type: "hint" }); };
  $("undo").onclick = () => send({ type: "undo", at: S.n });
  $("offer-takeback").onclick = () => send({ type: "offer", what: "takeback" });
  $("offer-draw").onclick = () => send({ type: "offer", what: "draw" });
  $("rematch").onclick = () => send({ type: "rematch" });
  $("accept").onclick = () => send(S.offer && S.offer.what === "rematch" ? { type: "rematch" } : { type: "answer", accept: true });
  $("refuse").onclick = () => send({ type: "answer", accept: false });
  $("resign").onclick = () => {
    if ($("resign").dataset.sure) send({ type: "resign" });
    else {
      $("resign").dataset.sure = "1";
      $("resign").textContent = "Really resign?";
      setTimeout(() => { delete $("resign").dataset.sure; $("resign").textContent = "Resign"; }, 4000);
    }
  };
  document.addEventListener("keydown", (event) => {
    const p = S.shown;
    if (!p || p.kind !== "sowing" || event.target.closest("input, select, textarea")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const letter = event.key.toUpperCase();
    if (letter.length === 1 && p.letters.includes(letter) && mine()) {
      event.preventDefault();
      play(letter);
    }
  });
  $("pause").onclick = () => {
    S.war.paused = !S.war.paused;
    $("pause").textContent = S.war.paused ? "Play" : "Pause";
  };
  $("step").onclick = () => { S.war.steps += 1; };
}

function button(group, label, live, action) {
  group.setAttribute("role", "button");
  group.setAttribute("tabindex", "0");
  group.setAttribute("aria-label", label);
  group.setAttribute("aria-disabled", live ? "false" : "true");
  if (live) group.classList.add("live");
  group.addEventListener("click", () => live && action());
  group.addEventListener("keydown", (event) => {
    if (live && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      action();
    }
  });
  el("title", {}, group, label);
}

// ------------------------------------------------------------------ sowing games

function seeds(group, cx, cy, count, room) {
  // A sunflower's spiral: evenly spread, as many as fit (the count is written beside).
  const spread = Math.min(room / 2.2, (room * 1.1) / Math.sqrt(Math.max(count, 1)));
  for (let k = 0; k < Math.min(count, 40); k++) {
    const r = spread * Math.sqrt(k + 0.3);
    const a = k * 2.39996;
    el("circle", { cx: cx + r * Math.cos(a), cy: cy + r * Math.sin(a), r: 4.5, fill: "var(--seed)", stroke: "#8b7a55" }, group);
  }
}

function sowingPlaces(p) {
  // Where each pit and store is drawn: Player 2's row on top, columns as Player 1 sees them.
  const pits = p.letters.length;
  const place = (player, column) => ({ x: 80 * (column + 1) + 40, y: player === 0 ? 190 : 90 });
  return { pits, place, stores: [{ x: 80 * (pits + 1) + 40, y: 140 }, { x: 40, y: 140 }] };
}

function drawSowing(p, live) {
  const { pits, place, stores } = sowingPlaces(p);
  const width = 80 * (pits + 2);
  const svg = el("svg", { viewBox: `0 0 ${width} 280`, role: "group", "aria-label": "the board" });
  el("rect", { x: 2, y: 35, width: width - 4, height: 210, rx: 40, fill: "var(--wood)", stroke: "var(--wood-dark)", "stroke-width": 4 }, svg);
  for (let c = 0; c < pits; c++) {
    el("text", { x: place(1, c).x, y: 24, "text-anchor": "middle", "font-size": 18, "font-weight": 700 }, svg, p.letters[c]);
    el("text", { x: place(0, c).x, y: 272, "text-anchor": "middle", "font-size": 18, "font-weight": 700 }, svg, p.letters[c]);
  }
  for (let player = 0; player < 2; player++) {
    const s = stores[player];
    const g = el("g", { "aria-label": `${S.table.names[player]}'s store, ${p.scores[player]} seeds`, role: "img" }, svg);
    storeName(svg, player, width);
    el("rect", { x: s.x - 30, y: 55, width: 60, height: 170, rx: 28, fill: "var(--pit)" }, g);
    seeds(g, s.x, s.y, p.scores[player], 24);
    el("text", { x: s.x, y: player === 0 ? 218 : 76, "text-anchor": "middle", "font-size": 18, fill: "#fff", "font-weight": 700 }, g, String(p.scores[player]));
    for (let c = 0; c < pits; c++) {
      const count = p.rows[player][c];
      const { x, y } = place(player, c);
      const letter = p.letters[c];
      const g2 = el("g", { class: "pit", "data-pit": `${player}${letter}` }, svg);
      const can = live && p.to_move === player && p.legal.includes(letter);
      const row = `Player ${player + 1}'s row`;
      button(g2, `pit ${letter}, ${count} seed${count === 1 ? "" : "s"}, ${row}`, can, () => play(letter));
      el("circle", { class: "hole", cx: x, cy: y, r: 34, fill: "var(--pit)" }, g2);
      seeds(g2, x, y, count, 30);
      el("text", { x: x + 27, y: y + (player === 0 ? 38 : -26), "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: "#111" }, g2, String(count));
    }
  }
  return svg;
}

function storeName(svg, player, width) {
  // Each store's owner, as large as the pit letters (a phone shows the board at half
  // size), from the board's edge toward the pits; a long name squeezed into the room
  // before the first pit's letter.
  const name = shortName(player);
  const room = 80;
  const at = player === 0 ? { x: width - 4, y: 272, "text-anchor": "end" } : { x: 4, y: 24, "text-anchor": "start" };
  const squeeze = name.length * 11 > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
  el("text", { ...at, ...squeeze, class: "store-name", "font-size": 18, "font-weight": 700 }, svg, name);
}

async function sow(before, sown, move, player) {
  // The seeds leave the pit and go round one by one, in the order of the sowing: pits
  // counter-clockwise, the stores where they fall (the counts say where; laps included).
  const pits = before.letters.length;
  const ring = [];
  for (let c = 0; c < pits; c++) ring.push([0, c]);
  ring.push(["store", 0]);
  for (let c = pits - 1; c >= 0; c--) ring.push([1, c]);
  ring.push(["store", 1]);
  const get = (p, [a, b]) => (a === "store" ? p.scores[b] : p.rows[a][b]);
  const column = before.letters.indexOf(move);
  const now = { ...before, rows: before.rows.map((r) => [...r]), scores: [...before.scores] };
  now.rows[player][column] = 0;
  const left = ring.map((slot) => get(sown, slot) - get(now, slot));
  let at = ring.findIndex(([a, b]) => a === player && b === column);
  let total = left.reduce((x, y) => x + Math.max(y, 0), 0);
  $("board").replaceChildren(drawSowing(now, false));
  while (total > 0) {
    at = (at + 1) % ring.length;
    if (left[at] <= 0) continue;
    left[at] -= 1;
    total -= 1;
    const [a, b] = ring[at];
    if (a === "store") now.scores[b] += 1;
    else now.rows[a][b] += 1;
    await sleep(140);
    $("board").replaceChildren(drawSowing(now, false));
  }
}

// ------------------------------------------------------------------ Ayo

function drawAyo(p, live) {
  const svg = el("svg", { viewBox: "0 0 640 300", role: "group", "aria-label": "the board" });
  el("text", { x: 320, y: 22, "text-anchor": "middle", "font-size": 17 }, svg, `Round ${p.round}, started by ${S.table.names[p.starter]}`);
  el("rect", { x: 40, y: 50, width: 490, height: 200, rx: 30, fill: "var(--wood)", stroke: "var(--wood-dark)", "stroke-width": 4 }, svg);
  const rows = [[0, 1, 2, 3, 4, 5], [11, 10, 9, 8, 7, 6]];
  for (let row = 0; row < 2; row++) {
    const y = row === 0 ? 200 : 100;
    el("text", { x: 545, y: y + 6, "font-size": 15 }, svg, `P${row + 1}: ${p.scores[row]}`);
    rows[row].forEach((house, i) => {
      const x = 85 + 80 * i;
      const count = p.houses[house];
      const owner = p.owners[house];
      const g = el("g", { class: "pit", "data-house": house }, svg);
      const can = live && p.to_move === owner && p.legal.includes(String(house));
      const foreign = owner !== row ? `, owned by Player ${owner + 1}` : "";
      button(g, `house ${house}, ${count} token${count === 1 ? "" : "s"}${foreign}`, can, () => play(String(house)));
      el("circle", { class: "hole", cx: x, cy: y, r: 34, fill: owner === row ? "var(--pit)" : "#2c4a6b" }, g);
      seeds(g, x, y, count, 30);
      el("text", { x: x + 27, y: y + (row === 0 ? 38 : -26), "text-anchor": "middle", "font-size": 17, "font-weight": 700 }, g, String(count));
      if (foreign) el("text", { x: x - 28, y: y + (row === 0 ? 38 : -26), "font-size": 13, fill: "#fff", "font-weight": 700 }, g, `P${owner + 1}`);
      el("text", { x, y: row === 0 ? 285 : 45, "text-anchor": "middle", "font-size": 16, "font-weight": 700 }, svg, String(house));
    });
  }
  return svg;
}

// ------------------------------------------------------------------ five in a row

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function moveCursor(event, n) {
  // Arrow keys move the board's one Tab stop over the points (Home and End: to the row's
  // ends); Enter or Space plays the point (the button's own keys).
  const [row, col] = S.cursor;
  let to = null;
  if (ARROWS[event.key]) to = [row + ARROWS[event.key][0], col + ARROWS[event.key][1]];
  else if (event.key === "Home") to = [row, 0];
  else if (event.key === "End") to = [row, n - 1];
  if (!to) return;
  event.preventDefault();
  S.cursor = to.map((k) => Math.max(0, Math.min(n - 1, k)));
  const points = $("board").querySelectorAll(".point");
  for (const point of points) point.setAttribute("tabindex", "-1");
  const here = points[S.cursor[0] * n + S.cursor[1]];
  here.setAttribute("tabindex", "0");
  here.focus({ preventScroll: true });
}

function drawGomoku(p, live) {
  const n = p.size, cell = 34, m = 40, side = m * 2 + cell * (n - 1);
  if (!S.cursor || S.cursor[0] >= n || S.cursor[1] >= n) S.cursor = [n >> 1, n >> 1]; // the centre first
  const svg = el("svg", { viewBox: `0 0 ${side} ${side}`, role: "group", "aria-label": "the board" });
  el("rect", { x: 0, y: 0, width: side, height: side, fill: "#dcb36b" }, svg);
  const at = (row, col) => [m + col * cell, m + row * cell];
  for (let i = 0; i < n; i++) {
    const [x0, y0] = at(i, 0), [x1] = at(i, n - 1);
    el("line", { x1: x0, y1: y0, x2: x1, y2: y0, stroke: "#3b2a12" }, svg);
    const [cx, cy0] = at(0, i), [, cy1] = at(n - 1, i);
    el("line", { x1: cx, y1: cy0, x2: cx, y2: cy1, stroke: "#3b2a12" }, svg);
    el("text", { x: cx, y: 20, "text-anchor": "middle", "font-size": 15, "font-weight": 700 }, svg, COLUMNS[i]);
    el("text", { x: cx, y: side - 8, "text-anchor": "middle", "font-size": 15, "font-weight": 700 }, svg, COLUMNS[i]);
    el("text", { x: 18, y: y0 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700 }, svg, String(n - i));
    el("text", { x: side - 18, y: y0 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700 }, svg, String(n - i));
  }
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const name = COLUMNS[col] + (n - row);
      const stone = p.rows[row][col];
      const [x, y] = at(row, col);
      const g = el("g", { class: "point", "data-point": name }, svg);
      const what = stone === "X" ? "X (black)" : stone === "0" ? "0 (white)" : "empty";
      button(g, `${name}, ${what}`, live && stone === ".", () => play(name));
      const cursor = S.cursor[0] === row && S.cursor[1] === col;
      g.setAttribute("tabindex", cursor ? "0" : "-1"); // one Tab stop: arrows move over the board
      if (cursor) g.dataset.cursor = "";
      g.addEventListener("keydown", (event) => moveCursor(event, n));
      g.addEventListener("focus", () => { S.cursor = [row, col]; });
      el("circle", { class: "spot", cx: x, cy: y, r: cell / 2 - 1 }, g);
      if (stone !== ".") {
        el("circle", { cx: x, cy: y, r: cell / 2 - 3, fill: stone === "X" ? "#111" : "#fafafa", stroke: "#111", "stroke-width": 1.5 }, g);
      }
      if (name === p.last) el("circle", { cx: x, cy: y, r: 5, fill: "#d0161d" }, g);
    }
  }
  if (p.five.length) {
    const ends = [p.five[0], p.five[p.five.length - 1]].map((name) => at(n - Number(name.slice(1)), COLUMNS.indexOf(name[0])));
    el("line", { x1: ends[0][0], y1: ends[0][1], x2: ends[1][0], y2: ends[1][1], stroke: "#d0161d", "stroke-width": 6, "stroke-linecap": "round", opacity: 0.85 }, svg);
  }
  return svg;
}

// ------------------------------------------------------------------ War

function card(parent, x, y, name) {
  const g = el("g", { transform: `translate(${x},${y})`, role: "img", "aria-label": name ? `card ${name}` : "a card face down" }, parent);
  if (!name) {
    el("rect", { width: 70, height: 100, rx: 7, fill: "#24477a", stroke: "#fff", "stroke-width": 3 }, g);
    el("rect", { x: 8, y: 8, width: 54, height: 84, rx: 4, fill: "none", stroke: "#9fb6d8", "stroke-dasharray": "4 3" }, g);
    return g;
  }
  const suit = name.slice(-1), rank = name.slice(0, -1);
  const colour = "♥♦".includes(suit) ? "#b3141b" : "#111";
  el("rect", { width: 70, height: 100, rx: 7, fill: "#fff", stroke: "#333", "stroke-width": 1.5 }, g);
  el("text", { x: 7, y: 20, "font-size": 17, "font-weight": 700, fill: colour }, g, rank);
  el("text", { x: 7, y: 37, "font-size": 16, fill: colour }, g, suit);
  el("text", { x: 35, y: 66, "text-anchor": "middle", "font-size": 34, fill: colour }, g, suit);
  el("text", { x: 63, y: 92, "text-anchor": "end", "font-size": 17, "font-weight": 700, fill: colour }, g, rank);
  return g;
}

async function showWar(event) {
  S.warShown += 1;
  while (S.war.paused && S.war.steps === 0) await sleep(50);
  if (S.war.steps > 0) S.war.steps -= 1;
  if (event.counts) S.war.counts = event.counts;
  switch (event.kind) {
    case "turned": {
      S.war.last = event;
      if (event.war > 0) S.war.took = null; // "War!" until the table is taken
      const war = event.war > 0 ? `war! ${event.down[0]} and ${event.down[1]} face down, then ` : "";
      logLine(war + `${event.up[0] || "no card"} vs ${event.up[1] || "no card"}`);
      break;
    }
    case "took":
      S.war.took = event;
      logLine(`round ${event.round}: ${S.table.names[event.player]} takes ${event.cards} cards (stacks ${event.counts[0]} : ${event.counts[1]})`);
      break;
    case "dealt":
      logLine(`Dealt ${event.counts[0]} and ${event.counts[1]} cards.`);
      break;
    case "over":
      S.war.over = event.result;
      logLine(event.result.words);
      break;
  }
  drawWar();
  const delay = Number($("speed").value);
  if (delay && !S.war.paused) await sleep(event.kind === "took" ? delay : delay / 2);
}

function drawWar() {
  const svg = el("svg", { viewBox: "0 0 600 330", role: "group", "aria-label": "the table" });
  el("rect", { width: 600, height: 330, rx: 16, fill: "#1d5e37" }, svg);
  const took = S.war.took;
  for (let p = 0; p < 2; p++) {
    const x = p === 0 ? 30 : 500;
    const count = S.war.counts[p];
    el("text", { x: x + 35, y: 30, "text-anchor": "middle", "font-size": 17, fill: "#fff", "font-weight": 700 }, svg, S.table.names[p]);
    for (let k = 0; k < Math.min(Math.ceil(count / 6), 8); k++) card(svg, x - k * 1.5, 50 - k * 2, null);
    el("text", { x: x + 35, y: 190, "text-anchor": "middle", "font-size": 16, fill: "#fff" }, svg, `${count} card${count === 1 ? "" : "s"}`);
    const last = S.war.last;
    if (last) {
      const cx = p === 0 ? 150 : 330;
      for (let k = 0; k < Math.min(last.down[p], 6); k++) card(svg, cx + k * 12, 60 + k * 3, null);
      if (last.up[p]) card(svg, cx + Math.min(last.down[p], 6) * 12 + 10, 80, last.up[p]);
    }
  }
  const over = S.war.over; // the whole sentence is the status line's; the table says who
  let words = over ? (over.winner === null ? "No winner." : `${S.table.names[over.winner]} wins.`) : "";
  if (!words && took && S.war.last && took.round >= 1) words = `${S.table.names[took.player]} took ${took.cards} cards (round ${took.round}).`;
  if (!words && S.war.last && S.war.last.war > 0) words = "War!";
  el("text", { x: 300, y: 290, "text-anchor": "middle", "font-size": 18, fill: "#fff", "font-weight": 700 }, svg, words);
  $("board").replaceChildren(svg);
  say(S.war.over ? S.war.over.words : `Round ${took ? took.round : 0}: ${S.war.counts[0]} : ${S.war.counts[1]} cards.`);
}

// ------------------------------------------------------------------ replays

async function replay(id) {
  const response = await fetch("/api/games/" + id);
  $("table").hidden = false;
  if (!response.ok) return say((await response.json()).error, true);
  showRecord(await response.json());
}

function showRecord(record, review = () => fetch(`/api/games/${record.table.id}/analysis`)) {
  $("table").hidden = false;
  S.you = [];
  tableInfo(record.table);
  S.fatal = true;
  S.replaying = true;
  $("move-form").hidden = true;
  if (record.table.kind === "war") {
    S.result = null;
    $("war-controls").hidden = false;
    S.queue = [...record.log];
    return drain();
  }
  // The replay steps through the game's line as it ended (a move taken back is not in
  // it, as in the server's analysis): position i follows the i-th move of the list.
  // What happened is told up to the moment the shown position was reached: told[i] is
  // how much of the story came before the line's i-th move was made.
  const positions = [record.start];
  const line = [];
  const movers = [];
  const story = [];
  const told = [0];
  for (const event of record.log) {
    const who = record.table.names[event.player];
    if (event.kind === "moved") {
      positions.push(event.position);
      line.push(event.move);
      movers.push(event.player);
      story.push(`${who} played ${event.move}.`);
      told[positions.length - 1] = story.length;
    } else if (event.kind === "taken_back") {
      positions.length = told.length = event.moves + 1;
      line.length = movers.length = event.moves;
      story.push(`${who} took back a turn.`);
    }
  }
  const moves = positions.map((_, at) => line.slice(0, at));
  story.push(record.result.words);
  const before = [...$("log").children]; // a file's "Replaying …" line stays first
  let at = positions.length - 1;
  let reviewed = null; // the review: each position's value for Player 1, each move's grade
  $("replay-controls").hidden = false;
  $("analyse").onclick = async () => {
    $("analysis-text").textContent = "The engine is looking at each position…";
    const response = await review();
    const answer = await response.json();
    if (!response.ok) return ($("analysis-text").textContent = answer.error);
    reviewed = answer;
    go(at);
  };
  const go = (to) => {
    at = Math.max(0, Math.min(positions.length - 1, to));
    S.shown = S.position = positions[at];
    S.moves = moves[at];
    S.movers = movers;
    S.result = null;
    drawMoves();
    const end = at === positions.length - 1;
    $("log").replaceChildren(...before, ...story.slice(0, end ? story.length : told[at]).map((text) => html("li", text)));
    if (reviewed) {
      $("moves").querySelectorAll("li").forEach((item, i) => {
        const { grade, lost } = reviewed.grades[i];
        item.append(` (${signed(reviewed.values[i + 1])}) `);
        const mark = html("span", grade, item);
        mark.className = "grade grade-" + grade;
        if (lost > 0) mark.title = `lost ${lost} against the best move`;
      });
      const exact = reviewed.exact[at] ? " (proven)" : " (the engine's estimate)";
      $("analysis-text").textContent = `Value for ${record.table.names[0]} here: ${signed(reviewed.values[at])}${exact}`;
      $("graph").replaceChildren(valueGraph(reviewed, at, (to) => go(to)));
    }
    draw(false);
    $("replay-at").textContent = `${at} / ${positions.length - 1}`;
    say(at === positions.length - 1 ? record.result.words : `Replay: after ${at} move${at === 1 ? "" : "s"}.`);
  };
  $("back").onclick = () => go(at - 1);
  $("forward").onclick = () => go(at + 1);
  go(at);
}

function valueGraph(reviewed, at, go) {
  // The value for Player 1 after each move, a line across the game; a dot on each
  // mistake and blunder, a ring where the replay is.  Huge values (a forced win) are
  // drawn at the edge.
  const values = reviewed.values;
  const w = 300, h = 100, n = Math.max(values.length - 1, 1);
  const finite = values.filter((v) => Math.abs(v) < 1000).map(Math.abs);
  const scale = Math.max(4, ...finite);
  const x = (i) => (i / n) * w;
  const y = (v) => h / 2 - (Math.max(-scale, Math.min(scale, v)) / scale) * (h / 2 - 4);
  const svg = el("svg", { viewBox: `-4 0 ${w + 8} ${h}`, role: "img", "aria-label": `Value for ${S.table.names[0]} over the game, from ${signed(values[0])} to ${signed(values[values.length - 1])}` });
  el("rect", { x: -4, y: 0, width: w + 8, height: h, fill: "#fff", stroke: "#8a7a60" }, svg);
  el("line", { x1: 0, y1: h / 2, x2: w, y2: h / 2, stroke: "#999", "stroke-dasharray": "4 3" }, svg);
  el("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "var(--accent)", "stroke-width": 2.5 }, svg);
  reviewed.grades.forEach(({ grade }, i) => {
    if (grade !== "mistake" && grade !== "blunder") return;
    const dot = el("circle", { class: "grade-dot grade-" + grade, cx: x(i + 1), cy: y(values[i + 1]), r: 5, fill: grade === "blunder" ? "var(--bad)" : "#c76a00" }, svg);
    el("title", {}, dot, `move ${i + 1}: ${grade}`);
    dot.addEventListener("click", () => go(i + 1));
  });
  el("circle", { cx: x(at), cy: y(values[at]), r: 7, fill: "none", stroke: "#111", "stroke-width": 2 }, svg);
  return svg;
}

function signed(v) {
  return (v > 0 ? "+" : "") + v;
}

// ------------------------------------------------------------------ start

const [, page, id] = location.pathname.split("/");
if (page === "game" && id) playGame(id);
else if (page === "replay" && id) replay(id);
else lobby();
