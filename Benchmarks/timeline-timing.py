#!/usr/bin/env python3
"""How fast the HTML report's timeline answers, in headless Chromium.

  Benchmarks/timeline-timing.py LAUNCHPROF FIXTURE [WORKDIR] [--repeat N] [--shape RUNSxSPANS ...]

LAUNCHPROF is a built `launchprof`, FIXTURE a built `launchprof-fixture`
(its `tracer-spans N` app records N main-thread spans and marks the first
frame). For each shape (default 100x10000 and 10x100000) the script measures
the app (`launchprof measure --runs RUNS --warmup 0 --format json`, skipped
when WORKDIR already holds the report), renders the HTML with `launchprof
report` (its wall and CPU time printed: the HTML tests check sizes, never
time), prints both sizes, then opens the page in headless Chromium, driven
over the DevTools protocol on a pipe (`--remote-debugging-pipe`, so Python's
standard library is enough), and prints medians of --repeat tries (default 5):

- load: navigation start to the first animation frame after the `load`
  event (the page has drawn its timeline by then: it draws on load);
- zoom step: a click on "zoom in" to the first animation frame after the draw;
- finding click: a click on the first finding to that frame (the chart zooms
  until the finding's span is drawn alone);
- search keystroke: one more letter typed into the search box (an `input`
  event; the search counts every matching span, drawn or not) to that frame.

Each interaction's time is `performance.now()` at the `requestAnimationFrame`
callback after the handler returned, less `performance.now()` before the
event was dispatched. Chromium's version and the machine's load (`uptime`)
are printed first: the figures mean little without them.
"""
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

TARGETS = {"load": (None, 3000), "zoom step": (100, 250), "finding click": (100, 250), "search keystroke": (100, 250)}

MEASURE = r"""
(async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => r(performance.now())));
  const out = {};
  const timed = async (name, act) => {
    const tries = [];
    for (let k = 0; k < %(repeat)d; k++) {
      const t0 = performance.now(); act(k); const t1 = await frame(); tries.push(t1 - t0);
      await frame();
    }
    tries.sort((a, b) => a - b); out[name] = tries[(tries.length - 1) >> 1];
  };
  const model = window.launchprof.timelines[0];
  out.spans = model.n;
  const zoomIn = document.querySelector('[data-zoom="in"]'), all = document.querySelector('[data-zoom="all"]');
  all.click(); await frame();
  await timed('zoom step', () => zoomIn.click());
  all.click(); await frame();
  const finding = document.querySelector('[data-finding]');
  if (finding) { await timed('finding click', () => { all.click(); finding.click(); }); }
  // The first span's name, typed a letter at a time.
  const input = document.querySelector('input.find'), word = model.raw.str[model.raw.nm[0]].toLowerCase();
  await timed('search keystroke', k => {
    input.value = word.slice(0, 1 + (k %% word.length)); input.dispatchEvent(new Event('input'));
  });
  out.word = word;
  out.matches = model.search(word.slice(0, 1));
  return out;
})()
"""


class Browser:
    """Headless Chromium driven over the DevTools protocol on fds 3 and 4."""

    def __init__(self, binary):
        self.to_browser_read, self.to_browser = os.pipe()
        self.from_browser, self.from_browser_write = os.pipe()
        os.set_inheritable(self.to_browser_read, True)
        os.set_inheritable(self.from_browser_write, True)
        self.profile = tempfile.mkdtemp(prefix="timing-profile-")

        def fds():
            # Through fresh numbers first, so neither end is overwritten by the other's dup2.
            reads, writes = os.dup(self.to_browser_read), os.dup(self.from_browser_write)
            os.dup2(reads, 3)
            os.dup2(writes, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--window-size=1280,900", "--allow-file-access-from-files", f"--user-data-dir={self.profile}",
             "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(self.to_browser_read)
        os.close(self.from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method):
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        while True:
            event = self.read()
            if event.get("method") == method:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        self.process.wait(timeout=30)
        shutil.rmtree(self.profile, ignore_errors=True)


def time_page(binary, html, repeat):
    browser = Browser(binary)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.send("Page.enable", session=session)
        browser.send("Page.navigate", {"url": "file://" + html}, session=session)
        browser.wait_for("Page.loadEventFired")
        load = browser.send(
            "Runtime.evaluate",
            {"expression": "new Promise(r => requestAnimationFrame(() => r(performance.now())))",
             "awaitPromise": True, "returnByValue": True}, session=session)["result"]["value"]
        result = browser.send(
            "Runtime.evaluate",
            {"expression": MEASURE % {"repeat": repeat}, "awaitPromise": True, "returnByValue": True},
            session=session)
        if "exceptionDetails" in result:
            raise RuntimeError(str(result["exceptionDetails"])[:400])
        figures = result["result"]["value"]
        figures["load"] = load
        return figures
    finally:
        browser.close()


def main():
    arguments = sys.argv[1:]
    repeat, shapes = 5, []
    while "--repeat" in arguments:
        at = arguments.index("--repeat")
        repeat = int(arguments[at + 1])
        del arguments[at:at + 2]
    while "--shape" in arguments:
        at = arguments.index("--shape")
        runs, spans = arguments[at + 1].lower().split("x")
        shapes.append((int(runs), int(spans)))
        del arguments[at:at + 2]
    if len(arguments) < 2:
        sys.exit(__doc__)
    shapes = shapes or [(100, 10_000), (10, 100_000)]
    launchprof, fixture = os.path.abspath(arguments[0]), os.path.abspath(arguments[1])
    work = os.path.abspath(arguments[2]) if len(arguments) > 2 else tempfile.mkdtemp(prefix="timeline-timing-")
    os.makedirs(work, exist_ok=True)
    binary = next((shutil.which(n) for n in ["chromium", "chromium-browser", "google-chrome"] if shutil.which(n)), None)
    if binary is None:
        sys.exit("no chromium on PATH")
    print(subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip())
    print("load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    for runs, spans in shapes:
        name = f"big-{runs}x{spans}"
        report = os.path.join(work, name + ".json")
        if not os.path.exists(report):
            subprocess.run([launchprof, "measure", "--runs", str(runs), "--warmup", "0", "--format", "json",
                            "--quiet", "--no-color", "--output", work, "--name", name, "--",
                            fixture, "tracer-spans", str(spans)], check=False)
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        subprocess.run([launchprof, "report", report, "--format", "html", "--no-color", "--output", work],
                       check=False, stdout=subprocess.DEVNULL)
        after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic() - started
        render_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        html = os.path.join(work, name + ".html")
        json_mb, html_mb = os.path.getsize(report) / 1e6, os.path.getsize(html) / 1e6
        print(f"\n{runs} runs x {spans} spans: JSON {json_mb:.1f} MB, HTML {html_mb:.2f} MB "
              f"({html_mb / json_mb:.3f} of the JSON; at most 0.2 wanted)")
        print(f"  render (launchprof report --format html): {wall:.2f} s wall, {render_cpu:.2f} s CPU")
        figures = time_page(binary, html, repeat)
        word = figures.get("word", "")
        print(f"  spans in the drawn run: {figures.get('spans')}; typed: {word[:repeat]!r}, "
              f"spans matching its first letter: {figures.get('matches')}")
        small = spans <= 10_000
        for key, (target_small, target_large) in TARGETS.items():
            if key not in figures:
                print(f"  {key:<18} (none: the page has no finding)")
                continue
            target = target_small if small else target_large
            verdict = "" if target is None else ("  ok" if figures[key] <= target else "  OVER")
            print(f"  {key:<18} {figures[key]:8.1f} ms" + (f"  (target {target} ms){verdict}" if target else ""))


if __name__ == "__main__":
    main()
