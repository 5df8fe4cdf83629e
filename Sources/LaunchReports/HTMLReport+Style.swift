extension HTMLReport {
    /// The page's CSS: light and dark (`prefers-color-scheme`), and print. It
    /// loads nothing (no `url()`, no `@import`, system fonts only).
    static let stylesheet = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1d232a; --muted: #5f6b77; --line: #d7dde3; --grid: #edf0f3; --card: #f5f7f9;
          --good: #166a2e; --bad: #b71c1c; --warn: #805500;
          --good-bg: #e6f4ea; --bad-bg: #fdecea; --warn-bg: #fff5d6;
          --cpu: #2b5fa6; --queue: #c32d4b; --disk: #d2780f; --network: #a578a5; --lock: #783c00; --sleep: #5a87ff; --wait: #693c69;
          --none: #7d7d7d; --merged: #1d232a; --focus: #0b57d0; --budget: #c62828; --frame: #1d232a; --label: #10151a; --point: #3b6ea5;
          --loader: #8fa3b8; --staticInit: #a8c8ea; --appInit: #9fd6c8; --willFinishLaunching: #f2c96e;
          --didFinishLaunching: #f4a261; --initialFrame: #bca6e6; --extended: #cbd89a;
          --sev-critical: #7b1fa2; --sev-warning: #0d47a1; --sev-info: #5f6b77; --found: #000000;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #14181c; --fg: #e3e7eb; --muted: #98a3ae; --line: #39424b; --grid: #222a31; --card: #1c2228;
            --good: #5cc27a; --bad: #ff6b6b; --warn: #e0b341;
            --good-bg: #17321f; --bad-bg: #3a1a1a; --warn-bg: #362b0f;
            --cpu: #6f9bd1; --queue: #e13c69; --disk: #ffc378; --network: #7869f0; --lock: #a57800; --sleep: #3cf0e1; --wait: #f08778;
            --none: #8c8c8c; --merged: #e3e7eb; --focus: #8ab4f8; --budget: #ff6b6b; --frame: #e3e7eb; --label: #0b0f13; --point: #7fb0e6;
            --loader: #7f93a8; --staticInit: #8fb3dd; --appInit: #7fc4b3; --willFinishLaunching: #d9b45a;
            --didFinishLaunching: #e0914a; --initialFrame: #a792d6; --extended: #b0c07a;
            --sev-critical: #e1a3ff; --sev-warning: #9ec5ff; --sev-info: #aab4bf; --found: #ffffff;
          }
        }
        * { box-sizing: border-box; }
        html { background: var(--bg); color: var(--fg); }
        body { margin: 0; font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, Roboto, "Helvetica Neue", Arial, sans-serif; }
        main { max-width: 1240px; margin: 0 auto; padding: 16px 20px 40px; }
        code, pre, .rule { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
        h1 { font-size: 22px; margin: 14px 0 4px; }
        h2 { font-size: 17px; margin: 0 0 8px; }
        h3 { font-size: 14px; margin: 14px 0 6px; }
        section { margin: 22px 0; }
        .meta { margin: 2px 0; }
        .meta.sub, .caption, .muted, footer { color: var(--muted); }
        .caption { margin: 4px 0 8px; font-size: 13px; }
        footer { margin-top: 32px; font-size: 12px; }
        .good { color: var(--good); } .bad { color: var(--bad); } .warn { color: var(--warn); }
        .verdict { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: baseline; padding: 12px 16px; border-radius: 8px;
          border-left: 6px solid; font-size: 15px; }
        .verdict.good { background: var(--good-bg); border-color: var(--good); }
        .verdict.bad { background: var(--bad-bg); border-color: var(--bad); }
        .verdict.warn { background: var(--warn-bg); border-color: var(--warn); }
        .verdict.plain { background: var(--card); border-color: var(--muted); }
        .verdict .word { font-weight: 700; letter-spacing: .04em; }
        .verdict.good .word { color: var(--good); } .verdict.bad .word { color: var(--bad); } .verdict.warn .word { color: var(--warn); }
        .verdict .reason { flex: 1 1 600px; }
        .verdict .exit { color: var(--muted); font-size: 12px; }
        .note { padding: 8px 12px; background: var(--card); border-radius: 6px; }
        .warnings { margin: 8px 0; padding-left: 20px; color: var(--warn); }
        ul.plain { padding-left: 20px; }
        table.grid { border-collapse: collapse; min-width: 70%; font-variant-numeric: tabular-nums; }
        table.grid th, table.grid td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
        table.grid td:first-child, table.grid td:last-child { white-space: normal; overflow-wrap: anywhere; min-width: 7em; }
        table.grid th { font-weight: 600; color: var(--muted); font-size: 12.5px; }
        table.grid .n { text-align: right; }
        table.grid tr.total td { font-weight: 600; }
        @media (max-width: 600px) {
          table.grid.stack, table.grid.stack tbody, table.grid.stack tr { display: block; min-width: 0; width: 100%; }
          table.grid.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          table.grid.stack tr { display: flex; flex-wrap: wrap; gap: 0 12px; padding: 6px 0; border-bottom: 1px solid var(--line); }
          table.grid.stack td { display: block; border: 0; padding: 1px 0; white-space: normal; text-align: left; min-width: 0; order: 2; }
          table.grid.stack td:first-child { flex: 1 1 60%; order: 0; font-weight: 600; }
          table.grid.stack td.verdict-cell { order: 1; font-weight: 600; }
          table.grid.stack td[data-label] { flex: 0 1 auto; }
          table.grid.stack td[data-label]::before { content: attr(data-label) " "; color: var(--muted); font-size: 12px; font-weight: 400; }
          table.grid.stack td.verdict-cell::before { content: none; }
          table.grid.stack td:empty { display: none; }
        }
        .sw { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
        .scroll, .tablebox { overflow-x: auto; max-width: 100%; }
        .meta, .note, .warnings, .rec, .caption, .reason, code { overflow-wrap: anywhere; }
        svg.strip { min-width: 0; }
        svg.strip text { font-size: calc(11px * var(--k, 1)); }
        .controls { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; margin: 4px 0 6px; font-size: 12px; }
        .controls[hidden] { display: none; }
        .controls input { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg);
          color: var(--fg); min-width: 0; width: 14em; max-width: 100%; }
        .controls button { font: inherit; padding: 2px 8px; border: 1px solid var(--line); border-radius: 4px; background: var(--card);
          color: var(--fg); cursor: pointer; }
        .controls .hint, .controls .found { color: var(--muted); }
        figure { margin: 0; }
        svg { display: block; width: 100%; min-width: 900px; height: auto; font-family: inherit; }
        svg text { fill: var(--fg); font-size: 11px; }
        svg .tick { fill: var(--muted); text-anchor: middle; font-size: 11px; }
        svg .lane { fill: var(--muted); font-size: 11px; font-weight: 600; }
        svg .grid { stroke: var(--grid); stroke-width: 1; }
        svg .sep { stroke: var(--line); stroke-width: 1; }
        svg .budget line { stroke: var(--budget); stroke-width: 1.5; stroke-dasharray: 6 3; }
        svg .budget text { fill: var(--budget); text-anchor: middle; font-weight: 600; }
        svg .budget text.end { text-anchor: end; } svg .budget text.start { text-anchor: start; }
        svg .ci { fill: var(--point); opacity: .16; }
        svg .median { stroke: var(--fg); stroke-width: 2; opacity: .7; }
        svg .pt { fill: var(--point); fill-opacity: .75; stroke: var(--bg); stroke-width: 1; }
        svg .pt.out { fill: var(--bad); stroke: var(--bad); stroke-width: 2; fill-opacity: .35; }
        svg .pt.med { stroke: var(--fg); stroke-width: 2; fill-opacity: 1; }
        svg .outl { fill: var(--bad); font-size: 11px; }
        svg .pt.m0 { fill: #3b6ea5; } svg .pt.m1 { fill: #d9822b; } svg .pt.m2 { fill: #2e9a6a; }
        svg .pt.m3 { fill: #a254b8; } svg .pt.m4 { fill: #c0a21a; } svg .pt.m5 { fill: #d1495b; }
        svg .lane.m0 { fill: #3b6ea5; } svg .lane.m1 { fill: #d9822b; } svg .lane.m2 { fill: #2e9a6a; }
        svg .lane.m3 { fill: #a254b8; } svg .lane.m4 { fill: #c0a21a; } svg .lane.m5 { fill: #d1495b; }
        .k-cpu { fill: var(--cpu); background: var(--cpu); } .k-queue { fill: var(--queue); background: var(--queue); } .k-disk { fill: var(--disk); background: var(--disk); }
        .k-network { fill: var(--network); background: var(--network); } .k-lock { fill: var(--lock); background: var(--lock); }
        .k-sleep { fill: var(--sleep); background: var(--sleep); } .k-wait { fill: var(--wait); background: var(--wait); }
        .k-none { fill: var(--none); background: var(--none); }
        .sw.merged { background: var(--merged); }
        .sw.est { background: repeating-linear-gradient(135deg, var(--cpu) 0 3px, var(--bg) 3px 4px); }
        canvas.timeline { display: block; touch-action: pan-y; cursor: pointer; }
        canvas.timeline:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
        .controls button:focus-visible, .controls input:focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
        .p-loader { fill: var(--loader); background: var(--loader); } .p-staticInit { fill: var(--staticInit); background: var(--staticInit); }
        .p-appInit { fill: var(--appInit); background: var(--appInit); }
        .p-willFinishLaunching { fill: var(--willFinishLaunching); background: var(--willFinishLaunching); }
        .p-didFinishLaunching { fill: var(--didFinishLaunching); background: var(--didFinishLaunching); }
        .p-initialFrame { fill: var(--initialFrame); background: var(--initialFrame); }
        .p-extended { fill: var(--extended); background: var(--extended); }
        .sw.fo { background: transparent; border: 2px solid var(--sev-info); }
        .sw.fo.sev-critical { border-color: var(--sev-critical); } .sw.fo.sev-warning { border-color: var(--sev-warning); }
        .sw.bl { background: transparent; border-left: 2px dashed var(--budget); border-radius: 0; width: 6px; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: var(--muted); margin: 8px 0 2px; }
        .details { margin-top: 8px; background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
        .details pre { margin: 0; white-space: pre-wrap; min-height: 1.4em; }
        ol.findings { list-style: none; padding: 0; margin: 0; }
        .finding { border-left: 4px solid var(--sev-info); background: var(--card); border-radius: 4px; padding: 8px 12px; margin: 6px 0; cursor: pointer; }
        .finding.sev-critical { border-color: var(--sev-critical); } .finding.sev-warning { border-color: var(--sev-warning); }
        .finding:hover { outline: 1px solid var(--muted); }
        .finding:focus-visible, .finding:focus { outline: 2px solid var(--focus); outline-offset: 2px; }
        .finding .head { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
        .finding .sev { font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); min-width: 58px; }
        .finding.sev-critical .sev { color: var(--sev-critical); } .finding.sev-warning .sev { color: var(--sev-warning); }
        .rule { font-weight: 600; }
        .cost { font-weight: 600; font-variant-numeric: tabular-nums; }
        .rec { margin: 4px 0 0; }
        ul.changes { list-style: none; padding: 0; margin: 0; }
        ul.changes li { padding: 5px 0; border-bottom: 1px solid var(--line); }
        ul.changes li > * { margin-right: 8px; }
        .tag { display: inline-block; font-size: 11px; font-weight: 700; text-transform: uppercase; padding: 0 6px; border-radius: 3px;
          border: 1px solid currentColor; }
        @media print {
          :root { color-scheme: light; --bg: #fff; --fg: #000; --card: #f5f5f5; }
          html, body { background: #fff; color: #000; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          main { max-width: none; padding: 0; }
          .details, footer, .controls { display: none; }
          .scroll { overflow: visible; }
          svg { min-width: 0; }
          section, figure, tr, .finding { break-inside: avoid; }
          @page { size: A4 landscape; margin: 12mm; }
        }

        """
}
