#!/usr/bin/env python3
"""Big reports: a real app with 10,000 main-thread spans measured 100 times,
then what reading its JSON report costs.

  Benchmarks/big-report.py LAUNCHPROF FIXTURE [WORKDIR] [--repeat N] [--runs N] [--spans N] [--before LAUNCHPROF]

LAUNCHPROF is a built `launchprof` (release), FIXTURE a built
`launchprof-fixture` (its `tracer-spans N` app links the tracer, records N
main-thread spans of CPU work, marks the first frame and exits). The script
measures it with `launchprof measure --runs 100 --warmup 0 --format json`
(skipped when WORKDIR already holds big.json, so one measurement can be read
by two builds), then prints, as medians of --repeat tries (default 3):

- the JSON report's size;
- for each format, `launchprof report big.json --format F` into a scratch
  folder (`--output -` for the terminal): CPU time (user + system, from
  wait4) and peak resident memory of the process;
- Python's `json.load` of the same file: CPU time (the reference: reading
  the report should cost no more than parsing it), and its peak memory,
  measured again beside each format (each try of it just before the same
  try of the format), and each format's ratio taken to its own;
- the HTML page's load time in headless Chromium (when `chromium` is on
  PATH): the time from navigation to the `load` event of the page in an
  iframe, read from `performance.now()` in the frame's parent.

With --before, another build (the one a change started from) renders every
format from the same file in the same run, each try of it between the same
try of json.load and of LAUNCHPROF, so that all three see the same load.

Every figure is a process's own resource usage, not wall time, so a loaded
machine inflates it less; still, compare figures from one run of the script.
"""
import json, os, shutil, statistics, subprocess, sys, tempfile

FORMATS = ["terminal", "markdown", "html", "json", "chrome-trace", "junit", "hyperfine"]


def usage_of(command, stdout=subprocess.DEVNULL):
    """Runs `command`; returns (exit status, CPU seconds, peak RSS in MB)."""
    process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {process.returncode}: {error.strip()}")
    return process.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def median_usage(commands, repeat):
    """Medians of (CPU seconds, peak MB) of each of `commands`, run in turn
    `repeat` times, so that all of them see the same load."""
    tries = [[] for _ in commands]
    for _ in range(repeat):
        for index, command in enumerate(commands):
            tries[index].append(usage_of(command))
    return [(statistics.median(t[1] for t in ts), statistics.median(t[2] for t in ts)) for ts in tries]


def chromium_load_seconds(html, repeat):
    browser = next((shutil.which(n) for n in ["chromium", "chromium-browser", "google-chrome"] if shutil.which(n)), None)
    if browser is None:
        return None
    folder = os.path.dirname(html)
    page = os.path.join(folder, "load-timer.html")
    with open(page, "w") as f:
        f.write("<!doctype html><body><script>const start = performance.now();</script>"
                f"<iframe src=\"{os.path.basename(html)}\" width=1280 height=900 "
                "onload=\"document.body.setAttribute('data-loaded', performance.now() - start)\"></iframe></body>")
    times = []
    for _ in range(repeat):
        result = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
             "--allow-file-access-from-files", "--dump-dom", "file://" + page],
            capture_output=True, text=True, timeout=600)
        marker = 'data-loaded="'
        if marker in result.stdout:
            times.append(float(result.stdout.split(marker, 1)[1].split('"', 1)[0]) / 1000)
        else:
            print(f"chromium did not report the load (exit {result.returncode}): {result.stderr.strip()[-300:]}")
    return statistics.median(times) if times else None


def main():
    arguments = sys.argv[1:]
    before = None
    if "--before" in arguments:
        at = arguments.index("--before")
        before = os.path.abspath(arguments[at + 1])
        del arguments[at:at + 2]
    options = {"--repeat": 3, "--runs": 100, "--spans": 10_000}
    for name in list(options):
        if name in arguments:
            at = arguments.index(name)
            options[name] = int(arguments[at + 1])
            del arguments[at:at + 2]
    if len(arguments) < 2:
        sys.exit(__doc__)
    launchprof, fixture = os.path.abspath(arguments[0]), os.path.abspath(arguments[1])
    work = os.path.abspath(arguments[2]) if len(arguments) > 2 else tempfile.mkdtemp(prefix="big-report-")
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, "big.json")
    if not os.path.exists(report):
        subprocess.run([launchprof, "measure", "--runs", str(options["--runs"]), "--warmup", "0", "--format", "json",
                        "--quiet", "--no-color", "--output", work, "--name", "big", "--",
                        fixture, "tracer-spans", str(options["--spans"])], check=False)
    repeat = options["--repeat"]
    rows = {"json size (MB)": os.path.getsize(report) / 1e6}
    print(f"report: {report}, {rows['json size (MB)']:.1f} MB")
    load = [sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1], 'rb'))", report]
    for format in FORMATS:
        scratch = tempfile.mkdtemp(prefix="out-", dir=work)
        output = ["--output", "-"] if format == "terminal" else ["--output", scratch]
        arguments = ["report", report, "--format", format, "--no-color"] + output
        usages = median_usage([load] + ([[before] + arguments] if before else []) + [[launchprof] + arguments], repeat)
        cpu, peak = usages[0]
        print(f"{'python json.load':<22} cpu {cpu:7.2f} s   peak {peak:7.0f} MB")
        for (cpu_f, peak_f), label in zip(usages[1:], (["before"] if before else []) + [""]):
            print(f"{'report ' + format:<22} cpu {cpu_f:7.2f} s   peak {peak_f:7.0f} MB   ({cpu_f / cpu:.2f} x json.load)  {label}")
        if format not in ("terminal", "html"):
            written = [name for name in os.listdir(scratch) if name.startswith("big.")]
            for name in written:
                print(f"{'  ' + name:<22} {os.path.getsize(os.path.join(scratch, name)) / 1e6:.1f} MB")
        if format == "html":
            html = os.path.join(scratch, "big.html")
            print(f"{'html size':<22} {os.path.getsize(html) / 1e3:.0f} KB")
            seconds = chromium_load_seconds(html, repeat)
            if seconds is not None:
                print(f"{'html load (chromium)':<22} {seconds:.2f} s")
        if format != "html":
            shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
