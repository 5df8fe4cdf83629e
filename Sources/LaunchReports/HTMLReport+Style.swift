extension HTMLReport {
    /// The page's CSS: light and dark (`prefers-color-scheme`), and print. It
    /// loads nothing (no `url()`, no `@import`, system fonts only).
    static let stylesheet = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1d232a; --muted: #5f6b77; --line: #d7dde3; --grid: #edf0f3; --card: #f5f7f9;
          --good: #166a2e; --bad: #b71c1c; --warn: #805500;
          --good-bg: #e6f4ea; --bad-bg: #fdecea; --warn-bg: #fff5d6;
          --cpu: #7ba7d7; --queue: #a8d88a; --disk: #f7a55b; --network: #c39bd3; --lock: #ee8584; --sleep: #7ccac2; --wait: #c8a587;
          --nest: #c9d3dd; --none: #b9b3ae; --budget: #c62828; --frame: #1d232a; --label: #10151a; --point: #3b6ea5;
          --loader: #8fa3b8; --staticInit: #a8c8ea; --appInit: #9fd6c8; --willFinishLaunching: #f2c96e;
          --didFinishLaunching: #f4a261; --initialFrame: #bca6e6; --extended: #cbd89a;
          --sev-critical: #7b1fa2; --sev-warning: #0d47a1; --sev-info: #5f6b77; --found: #000000;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #14181c; --fg: #e3e7eb; --muted: #98a3ae; --line: #39424b; --grid: #222a31; --card: #1c2228;
            --good: #5cc27a; --bad: #ff6b6b; --warn: #e0b341;
            --good-bg: #17321f; --bad-bg: #3a1a1a; --warn-bg: #362b0f;
            --cpu: #6f9bd1; --queue: #8fc474; --disk: #e0914a; --network: #b48ad0; --lock: #e07a79; --sleep: #5fbab1; --wait: #b8956f;
            --nest: #8a98a6; --none: #9a938d; --budget: #ff6b6b; --frame: #e3e7eb; --label: #0b0f13; --point: #7fb0e6;
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
        .verdict .word { font-weight: 700; letter-spacing: .04em; }
        .verdict.good .word { color: var(--good); } .verdict.bad .word { color: var(--bad); } .verdict.warn .word { color: var(--warn); }
        .verdict .reason { flex: 1 1 600px; }
        .verdict .exit { color: var(--muted); font-size: 12px; }
        .note { padding: 8px 12px; background: var(--card); border-radius: 6px; }
        .warnings { margin: 8px 0; padding-left: 20px; color: var(--warn); }
        ul.plain { padding-left: 20px; }
        table.grid { border-collapse: collapse; min-width: 70%; font-variant-numeric: tabular-nums; }
        table.grid th, table.grid td { padding: 4px 12px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
        table.grid th { font-weight: 600; color: var(--muted); font-size: 12.5px; }
        table.grid .n { text-align: right; }
        table.grid tr.total td { font-weight: 600; }
        .sw { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
        .scroll, .tablebox { overflow-x: auto; max-width: 100%; }
        .meta, .note, .warnings, .rec, .caption, .reason, code { overflow-wrap: anywhere; }
        svg.strip { min-width: 0; }
        .controls { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; margin: 4px 0 6px; font-size: 12px; }
        .controls[hidden] { display: none; }
        .controls input { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg);
          color: var(--fg); min-width: 0; width: 14em; max-width: 100%; }
        .controls button { font: inherit; padding: 2px 8px; border: 1px solid var(--line); border-radius: 4px; background: var(--card);
          color: var(--fg); cursor: pointer; }
        .controls .hint, .controls .found { color: var(--muted); }
        svg.searching .s { opacity: .25; } svg.searching .s.match { opacity: 1; stroke: var(--found); stroke-width: 2; }
        svg .sel-range { fill: var(--point); opacity: .18; pointer-events: none; }
        svg.timeline { touch-action: pan-y; }
        figure { margin: 0; }
        svg { display: block; width: 100%; min-width: 900px; height: auto; font-family: inherit; }
        svg text { fill: var(--fg); font-size: 11px; }
        svg .tick { fill: var(--muted); text-anchor: middle; font-size: 10px; }
        svg .lane { fill: var(--muted); font-size: 11px; font-weight: 600; }
        svg .grid { stroke: var(--grid); stroke-width: 1; }
        svg .sep { stroke: var(--line); stroke-width: 1; }
        svg .ph { stroke: var(--bg); stroke-width: 1; }
        svg .phl { fill: var(--label); font-size: 10.5px; pointer-events: none; }
        svg .ms line { stroke: var(--muted); stroke-width: 1; stroke-dasharray: 2 3; opacity: .7; }
        svg .ms path { fill: var(--muted); }
        svg .ms.frame line { stroke: var(--frame); stroke-dasharray: none; opacity: .8; }
        svg .ms.frame path { fill: var(--frame); }
        svg .msl { fill: var(--muted); font-size: 10px; }
        svg .s { stroke: var(--bg); stroke-width: .5; cursor: pointer; }
        svg .s:hover { opacity: .8; }
        svg .s.f { stroke-width: 2.2; }
        svg .s.f.sev-critical { stroke: var(--sev-critical); }
        svg .s.f.sev-warning { stroke: var(--sev-warning); }
        svg .s.f.sev-info { stroke: var(--sev-info); }
        svg .s.sel, svg .s.hl { stroke: var(--fg); stroke-width: 3; }
        svg .sl { fill: var(--label); font-size: 10.5px; pointer-events: none; }
        svg .budget line { stroke: var(--budget); stroke-width: 1.5; stroke-dasharray: 6 3; }
        svg .budget text { fill: var(--budget); text-anchor: middle; font-weight: 600; }
        svg .budget text.end { text-anchor: end; } svg .budget text.start { text-anchor: start; }
        svg .ci { fill: var(--point); opacity: .16; }
        svg .median { stroke: var(--fg); stroke-width: 2; opacity: .7; }
        svg .pt { fill: var(--point); fill-opacity: .75; stroke: var(--bg); stroke-width: 1; }
        svg .pt.out { fill: var(--bad); stroke: var(--bad); stroke-width: 2; fill-opacity: .35; }
        svg .pt.med { stroke: var(--fg); stroke-width: 2; fill-opacity: 1; }
        svg .outl { fill: var(--bad); font-size: 10px; }
        svg .pt.m0 { fill: #3b6ea5; } svg .pt.m1 { fill: #d9822b; } svg .pt.m2 { fill: #2e9a6a; }
        svg .pt.m3 { fill: #a254b8; } svg .pt.m4 { fill: #c0a21a; } svg .pt.m5 { fill: #d1495b; }
        svg .lane.m0 { fill: #3b6ea5; } svg .lane.m1 { fill: #d9822b; } svg .lane.m2 { fill: #2e9a6a; }
        svg .lane.m3 { fill: #a254b8; } svg .lane.m4 { fill: #c0a21a; } svg .lane.m5 { fill: #d1495b; }
        .k-cpu { fill: var(--cpu); background: var(--cpu); } .k-queue { fill: var(--queue); background: var(--queue); } .k-disk { fill: var(--disk); background: var(--disk); }
        .k-network { fill: var(--network); background: var(--network); } .k-lock { fill: var(--lock); background: var(--lock); }
        .k-sleep { fill: var(--sleep); background: var(--sleep); } .k-wait { fill: var(--wait); background: var(--wait); }
        .k-nest { fill: var(--nest); background: var(--nest); } .k-none { fill: var(--none); background: var(--none); }
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
        .finding:hover, .finding:focus { outline: 2px solid var(--line); }
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

    /// The page's only script. It reads the page, never the network.
    ///
    /// - A click on a span shows its details in the panel below its timeline.
    /// - Each timeline zooms and pans: drag across it to zoom to a range, Ctrl
    ///   (or ⌘) + wheel zooms at the pointer, Shift + wheel or a horizontal wheel
    ///   pans, and buttons do the same; it opens zoomed to the range the verdict
    ///   judges (`data-view`). Elements that sit at a time carry it in
    ///   milliseconds (`data-b`/`data-e`, `data-at`), and are moved on each change.
    /// - A search box highlights the spans whose name holds the text.
    /// - A click (or Enter) on a finding zooms its timeline to the finding's
    ///   spans, selects the first and scrolls it into view.
    static let script = """
        (function () {
          'use strict';
          var W = 1200, G = 140, R = 16, P = W - G - R;
          function num(el, name) { return parseFloat(el.getAttribute(name)); }
          function views(svg) {
            if (!svg.lp) {
              var end = num(svg, 'data-end');
              svg.lp = { end: end, v0: 0, v1: end };
            }
            return svg.lp;
          }
          function tickStep(range) {
            var raw = range / 8, m = 1;
            while (m * 10 <= raw) { m *= 10; }
            while (m > raw) { m /= 10; }
            var steps = [1, 2, 5, 10];
            for (var i = 0; i < steps.length; i++) { if (steps[i] * m >= raw) { return steps[i] * m; } }
            return m * 10;
          }
          function label(value, step) {
            if (step >= 1) { return Math.round(value) + ' ms'; }
            return value.toFixed(step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3) + ' ms';
          }
          function draw(svg) {
            var v = views(svg), span = v.v1 - v.v0;
            function X(ms) { return G + (ms - v.v0) / span * P; }
            var els = svg.querySelectorAll('[data-b]');
            for (var i = 0; i < els.length; i++) {
              var el = els[i], b = num(el, 'data-b'), e = num(el, 'data-e');
              var x0 = X(b), x1 = X(e), out = x1 < G || x0 > W - R;
              var cx0 = Math.max(G, x0), cx1 = Math.min(W - R, x1);
              if (el.tagName.toLowerCase() === 'rect') {
                el.style.display = out ? 'none' : '';
                el.setAttribute('x', cx0.toFixed(1));
                el.setAttribute('width', Math.max(0.6, cx1 - cx0).toFixed(1));
              } else {
                var text = el.getAttribute('data-t') || '', fits = Math.floor((cx1 - cx0 - 6) / 6.2);
                el.setAttribute('x', (cx0 + 3).toFixed(1));
                el.textContent = out || fits < 3 ? '' : text.length <= fits ? text : text.slice(0, fits - 1) + '\\u2026';
              }
            }
            var marks = svg.querySelectorAll('[data-at]');
            for (var j = 0; j < marks.length; j++) {
              var at = X(num(marks[j], 'data-at')), inside = at >= G - 0.5 && at <= W - R + 0.5;
              marks[j].style.display = inside ? '' : 'none';
              marks[j].setAttribute('transform', 'translate(' + (at - num(marks[j], 'data-x')).toFixed(1) + ' 0)');
            }
            var ticks = svg.querySelector('.ticks'), bottom = svg.getAttribute('data-bottom'), step = tickStep(span), html = '';
            for (var t = Math.ceil(v.v0 / step) * step; t <= v.v1 + step * 1e-9; t += step) {
              var tx = X(t).toFixed(1);
              html += '<line class="grid" x1="' + tx + '" y1="16" x2="' + tx + '" y2="' + bottom + '"></line>'
                + '<text class="tick" x="' + tx + '" y="12">' + label(t, step) + '</text>';
            }
            var holder = document.createElementNS(svg.namespaceURI, 'g');
            holder.innerHTML = html;
            while (ticks.firstChild) { ticks.removeChild(ticks.firstChild); }
            while (holder.firstChild) { ticks.appendChild(holder.firstChild); }
          }
          function zoomTo(svg, v0, v1) {
            var v = views(svg), min = Math.max(v.end / 20000, 0.001);
            if (v1 - v0 < min) { var c = (v0 + v1) / 2; v0 = c - min / 2; v1 = c + min / 2; }
            if (v1 - v0 > v.end) { v0 = 0; v1 = v.end; }
            if (v0 < 0) { v1 -= v0; v0 = 0; }
            if (v1 > v.end) { v0 -= v1 - v.end; v1 = v.end; }
            v.v0 = Math.max(0, v0); v.v1 = v1;
            draw(svg);
          }
          function msAt(svg, clientX) {
            var box = svg.getBoundingClientRect(), x = (clientX - box.left) / box.width * W, v = views(svg);
            return v.v0 + (Math.min(Math.max(x, G), W - R) - G) / P * (v.v1 - v.v0);
          }
          function show(span) {
            var figure = span.closest('figure');
            var panel = figure && figure.querySelector('.details pre');
            var title = span.querySelector('title');
            if (!panel || !title) { return; }
            var old = document.querySelectorAll('.sel');
            for (var i = 0; i < old.length; i++) { old[i].classList.remove('sel'); }
            span.classList.add('sel');
            panel.textContent = title.textContent;
          }
          function highlight(id) {
            var old = document.querySelectorAll('.hl');
            for (var i = 0; i < old.length; i++) { old[i].classList.remove('hl'); }
            var spans = document.querySelectorAll('[data-f~="' + id + '"]');
            if (spans.length === 0) { return; }
            var b = Infinity, e = -Infinity;
            for (var j = 0; j < spans.length; j++) {
              spans[j].classList.add('hl');
              b = Math.min(b, num(spans[j], 'data-b')); e = Math.max(e, num(spans[j], 'data-e'));
            }
            var svg = spans[0].closest('svg'), pad = Math.max((e - b) * 0.25, views(svg).end / 400);
            zoomTo(svg, b - pad, e + pad);
            show(spans[0]);
            spans[0].scrollIntoView({ block: 'center', inline: 'center' });
          }
          function search(figure, text) {
            var svg = figure.querySelector('svg.timeline'), rects = svg.querySelectorAll('rect.s'), found = 0;
            text = text.trim().toLowerCase();
            svg.classList.toggle('searching', text.length > 0);
            for (var i = 0; i < rects.length; i++) {
              var title = rects[i].querySelector('title'), name = title ? title.textContent.split('\\n')[0].toLowerCase() : '';
              var hit = text.length > 0 && name.indexOf(text) >= 0;
              rects[i].classList.toggle('match', hit);
              if (hit) { found++; }
            }
            figure.querySelector('.found').textContent = text.length > 0 ? found + ' span(s) match' : '';
          }
          var svgs = document.querySelectorAll('svg.timeline');
          for (var k = 0; k < svgs.length; k++) {
            (function (svg) {
              var figure = svg.closest('figure'), controls = figure.querySelector('.controls');
              if (controls) { controls.hidden = false; }
              var view = svg.getAttribute('data-view');
              if (view) { zoomTo(svg, 0, parseFloat(view)); } else { draw(svg); }
              var drag = null;
              svg.addEventListener('mousedown', function (event) {
                if (event.button !== 0) { return; }
                drag = { start: msAt(svg, event.clientX), x: event.clientX, rect: null };
              });
              svg.addEventListener('mousemove', function (event) {
                if (!drag || Math.abs(event.clientX - drag.x) < 4) { return; }
                if (!drag.rect) {
                  drag.rect = document.createElementNS(svg.namespaceURI, 'rect');
                  drag.rect.setAttribute('class', 'sel-range');
                  drag.rect.setAttribute('y', '0');
                  drag.rect.setAttribute('height', svg.getAttribute('data-bottom'));
                  svg.appendChild(drag.rect);
                }
                var box = svg.getBoundingClientRect();
                var a = (Math.min(drag.x, event.clientX) - box.left) / box.width * W;
                var c = (Math.max(drag.x, event.clientX) - box.left) / box.width * W;
                drag.rect.setAttribute('x', a.toFixed(1));
                drag.rect.setAttribute('width', (c - a).toFixed(1));
              });
              window.addEventListener('mouseup', function (event) {
                if (!drag) { return; }
                var d = drag; drag = null;
                if (d.rect) {
                  d.rect.parentNode.removeChild(d.rect);
                  var end = msAt(svg, event.clientX);
                  zoomTo(svg, Math.min(d.start, end), Math.max(d.start, end));
                  svg.lpDragged = true;
                }
              });
              svg.addEventListener('wheel', function (event) {
                var v = views(svg), range = v.v1 - v.v0;
                if (event.ctrlKey || event.metaKey) {
                  event.preventDefault();
                  var at = msAt(svg, event.clientX), f = event.deltaY > 0 ? 1.25 : 0.8;
                  zoomTo(svg, at - (at - v.v0) * f, at + (v.v1 - at) * f);
                } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
                  event.preventDefault();
                  var delta = (event.shiftKey ? event.deltaY : event.deltaX) > 0 ? 0.1 : -0.1;
                  zoomTo(svg, v.v0 + range * delta, v.v1 + range * delta);
                }
              }, { passive: false });
              if (controls) {
                controls.addEventListener('click', function (event) {
                  var button = event.target.closest && event.target.closest('[data-zoom]');
                  if (!button) { return; }
                  var v = views(svg), range = v.v1 - v.v0, mid = (v.v0 + v.v1) / 2, what = button.getAttribute('data-zoom');
                  if (what === 'in') { zoomTo(svg, mid - range / 4, mid + range / 4); }
                  if (what === 'out') { zoomTo(svg, mid - range, mid + range); }
                  if (what === 'left') { zoomTo(svg, v.v0 - range / 3, v.v1 - range / 3); }
                  if (what === 'right') { zoomTo(svg, v.v0 + range / 3, v.v1 + range / 3); }
                  if (what === 'all') { zoomTo(svg, 0, v.end); }
                });
                var input = controls.querySelector('.find');
                input.addEventListener('input', function () { search(figure, input.value); });
              }
            })(svgs[k]);
          }
          document.addEventListener('click', function (event) {
            var target = event.target;
            if (!target || !target.closest) { return; }
            var svg = target.closest('svg.timeline');
            if (svg && svg.lpDragged) { svg.lpDragged = false; return; }
            var span = target.closest('[data-s]');
            if (span) { show(span); return; }
            var finding = target.closest('[data-finding]');
            if (finding) { highlight(finding.getAttribute('data-finding')); }
          });
          document.addEventListener('keydown', function (event) {
            if (event.key !== 'Enter') { return; }
            var finding = event.target && event.target.closest && event.target.closest('[data-finding]');
            if (finding) { highlight(finding.getAttribute('data-finding')); }
          });
        })();

        """
}
