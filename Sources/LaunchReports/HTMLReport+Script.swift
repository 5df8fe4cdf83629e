extension HTMLReport {
    /// The page's only script. It reads the page, never the network.
    ///
    /// - Each timeline is drawn on its `<canvas>` from its ``TimelineData``. Per
    ///   track, only the spans in view are visited (a binary search on begin), and
    ///   spans narrower than a pixel are merged into one bar with their count, so
    ///   a frame is bounded by the chart's width times its rows.
    /// - Main-thread spans are split in proportion into CPU, waiting for a CPU,
    ///   blocked by kind, not accounted and nested time; the thread-state lane
    ///   under the main thread shows the split of the innermost span at each moment
    ///   (spans under a pixel summed per pixel column).
    /// - It zooms and pans: drag across it, Ctrl (or ⌘) + wheel, Shift + wheel, the
    ///   buttons, or + / − on the focused chart; it opens zoomed to the range the
    ///   verdict judges (`view`). Arrow keys move between spans; their details are
    ///   written to the panel below (read aloud: it is a live region).
    /// - Search counts every span whose name holds the text, drawn or not; Enter
    ///   (or ▼ / ▲) steps through them, zooming each into view.
    /// - A click (or Enter) on a finding zooms its timeline until the finding's
    ///   longest span is drawn alone, highlights its spans and selects it.
    /// - `window.launchprof.timelines` exposes the models (for the tests and the
    ///   benchmark): `search(text)` returns the count, `step(1)`, `zoomTo(v0, v1)`.
    static let script = scriptDrawing + scriptInteraction

    /// The first part of ``script``: formatting, the models and the drawing.
    static let scriptDrawing = #"""
        (function () {
          'use strict';
          var RH = 18, SH = 14, KINDS = ['cpu', 'queue', 'disk', 'network', 'lock', 'sleep', 'wait', 'none'];
          var WAITK = { disk: 2, network: 3, lock: 4, sleep: 5 };
          var models = [];
          function fmt(v) {
            if (!isFinite(v)) { return '—'; }
            var a = Math.abs(v);
            if (a === 0) { return '0 ms'; }
            if (a >= 100) { return Math.round(v) + ' ms'; }
            if (a >= 10) { return v.toFixed(1) + ' ms'; }
            if (a >= 1) { return v.toFixed(2) + ' ms'; }
            var u = v * 1000, au = Math.abs(u);
            return (au >= 100 ? String(Math.round(u)) : au >= 10 ? u.toFixed(1) : u.toFixed(2)) + ' µs';
          }
          function tickStep(range, count) {
            var raw = range / (count || 8), m = 1;
            while (m * 10 <= raw) { m *= 10; }
            while (m > raw) { m /= 10; }
            var steps = [1, 2, 5, 10];
            for (var i = 0; i < steps.length; i++) { if (steps[i] * m >= raw) { return steps[i] * m; } }
            return m * 10;
          }
          function tickLabel(value, step) {
            if (step >= 1) { return Math.round(value) + ' ms'; }
            if (step >= 0.001) { return value.toFixed(step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3) + ' ms'; }
            return (value * 1000).toFixed(step >= 0.0001 ? 1 : 2) + ' µs';
          }
          function lowerBound(list, b, value) {
            var lo = 0, hi = list.length;
            while (lo < hi) { var mid = (lo + hi) >> 1; if (b[list[mid]] < value) { lo = mid + 1; } else { hi = mid; } }
            return lo;
          }
          function colours(canvas) {
            var style = getComputedStyle(canvas), c = {};
            ['bg', 'fg', 'muted', 'line', 'grid', 'label', 'budget', 'frame', 'found', 'focus', 'merged',
             'sev-critical', 'sev-warning', 'sev-info'].concat(KINDS).forEach(function (name) {
              c[name] = style.getPropertyValue('--' + name).trim() || '#888';
            });
            c.kinds = KINDS.map(function (k) { return c[k]; });
            c.font = style.fontFamily;
            var tile = document.createElement('canvas');
            tile.width = 6; tile.height = 6;
            var t = tile.getContext('2d');
            t.strokeStyle = c.bg; t.globalAlpha = 0.75; t.lineWidth = 1.6;
            t.beginPath(); t.moveTo(0, 6); t.lineTo(6, 0); t.moveTo(-1, 1); t.lineTo(1, -1); t.moveTo(5, 7); t.lineTo(7, 5); t.stroke();
            c.hatch = canvas.getContext('2d').createPattern(tile, 'repeat');
            return c;
          }
          function Model(fig) {
            var m = this, raw = JSON.parse(fig.querySelector('script.tl-data').textContent), n = raw.n, i, k;
            m.fig = fig; m.raw = raw; m.n = n;
            m.canvas = fig.querySelector('canvas.timeline');
            m.panel = fig.querySelector('.details pre');
            m.found = fig.querySelector('.found');
            var b = m.b = new Float64Array(n), e = m.e = new Float64Array(n), acc = 0;
            for (i = 0; i < n; i++) { acc += raw.b[i]; b[i] = acc / 1e6; e[i] = b[i] + raw.d[i] / 1e6; }
            var tracks = 0;
            m.laneTrack = raw.lanes.map(function (lane) { var first = tracks; tracks += lane[1]; return first; });
            m.trackLane = new Int32Array(tracks);
            raw.lanes.forEach(function (lane, index) {
              for (var r = 0; r < lane[1]; r++) { m.trackLane[m.laneTrack[index] + r] = index; }
            });
            var counts = new Int32Array(tracks);
            for (i = 0; i < n; i++) { counts[raw.t[i]]++; }
            m.tracks = [];
            for (k = 0; k < tracks; k++) { m.tracks.push(new Int32Array(counts[k])); counts[k] = 0; }
            for (i = 0; i < n; i++) { var tr = raw.t[i]; m.tracks[tr][counts[tr]++] = i; }
            m.maxDur = new Float64Array(tracks);
            m.pos = new Int32Array(n);
            for (k = 0; k < tracks; k++) {
              var list = m.tracks[k], sorted = true;
              for (i = 1; i < list.length; i++) { if (b[list[i]] < b[list[i - 1]]) { sorted = false; break; } }
              if (!sorted) { m.tracks[k] = list = Int32Array.from(Array.from(list).sort(function (x, y) { return b[x] - b[y]; })); }
              for (i = 0; i < list.length; i++) { m.pos[list[i]] = i; m.maxDur[k] = Math.max(m.maxDur[k], e[list[i]] - b[list[i]]); }
            }
            m.bkFirst = new Int32Array(n).fill(-1);
            for (k = raw.bk.length - 3; k >= 0; k -= 3) { m.bkFirst[raw.bk[k]] = k; }
            m.flag = new Uint8Array(n);
            for (k = 0; k < raw.fg.length; k += 2) { m.flag[raw.fg[k]] = raw.fg[k + 1]; }
            m.sev = new Uint8Array(n);
            for (k = 0; k < raw.fx.length; k += 2) { m.sev[raw.fx[k]] = raw.fx[k + 1]; }
            m.cx = {};
            for (k = 0; k < raw.cx.length; k += 2) { m.cx[raw.cx[k]] = raw.cx[k + 1]; }
            m.spanFindings = {};
            m.findingIndex = {};
            raw.fid.forEach(function (id, f) {
              m.findingIndex[id] = f;
              raw.fsp[f].forEach(function (s) { (m.spanFindings[s] = m.spanFindings[s] || []).push(f); });
            });
            m.end = raw.end; m.v0 = 0; m.v1 = raw.view || raw.end;
            m.sel = -1; m.hl = null; m.matches = null; m.matchFlag = null; m.cur = -1; m.drag = null;
          }
          // What span i's wall time went to, in drawing order: [kind index (-1: nested spans), share of wall, estimated].
          Model.prototype.segments = function (i) {
            var r = this.raw, wall = r.d[i], out = [], f = this.flag[i];
            if (!(wall > 0)) { return [[7, 1, false]]; }
            var own = Math.min(r.sf[i], wall), parts = [];
            if (r.cp[i] >= 0) { parts.push([0, r.cp[i], (f & 4) !== 0]); }
            if (r.q[i] > 0) { parts.push([1, r.q[i], (f & 4) !== 0]); }
            for (var k = this.bkFirst[i]; k >= 0 && k < r.bk.length && r.bk[k] === i; k += 3) {
              var kind = WAITK[r.wk[r.bk[k + 1]]];
              parts.push([kind === undefined ? 6 : kind, r.bk[k + 2], (f & 8) !== 0]);
            }
            var used = 0;
            parts.forEach(function (p) { used += p[1]; });
            var scale = used > own && used > 0 ? own / used : 1;
            parts.forEach(function (p) { out.push([p[0], p[1] * scale / wall, p[2]]); });
            if (own > used) { out.push([7, (own - used) / wall, false]); }
            if (wall > own) { out.push([-1, (wall - own) / wall, false]); }
            return out;
          };
          Model.prototype.details = function (i) {
            var m = this, r = m.raw, f = m.flag[i], lane = m.trackLane[r.t[i]], lines = [], est = false;
            lines.push(r.str[r.nm[i]] + (f & 1 ? ' (still open when the trace was written)' : ''));
            lines.push(r.str[r.fl[i]] + ':' + r.ln[i] + ' · ' + r.str[r.cat[i]] + ' · depth ' + (r.t[i] - m.laneTrack[lane])
              + ' · ' + r.lanes[lane][0]);
            lines.push('at ' + fmt(m.b[i]) + ' → ' + fmt(m.e[i]) + (f & 2 ? ' (after the first frame)' : ''));
            var parts = [];
            if (r.cp[i] >= 0) { parts.push('CPU ' + (f & 4 ? '≈' : '') + fmt(r.cp[i] / 1e6)); est = est || (f & 4) !== 0; }
            if (r.q[i] > 0) { parts.push('waiting for a CPU ' + (f & 4 ? '≈' : '') + fmt(r.q[i] / 1e6)); }
            for (var k = m.bkFirst[i]; k >= 0 && k < r.bk.length && r.bk[k] === i; k += 3) {
              parts.push(r.wk[r.bk[k + 1]] + ' ' + (f & 8 ? '≈' : '') + fmt(r.bk[k + 2] / 1e6));
              est = est || (f & 8) !== 0;
            }
            lines.push('wall ' + fmt(r.d[i] / 1e6) + ' · self ' + fmt(r.sf[i] / 1e6) + (parts.length ? ': ' + parts.join(', ') : ''));
            if (est) { lines.push('≈ marks an estimate, attributed rather than read (blocked time split between kinds by the sampler\'s samples, or CPU time placed from the tracer\'s readings)'); }
            if (!parts.length) { lines.push(r.lanes[lane][2] ? 'no CPU or wait readings for this span' : 'no CPU or wait readings on this thread'); }
            if (m.cx[i] !== undefined) { lines.push(r.str[m.cx[i]]); }
            (m.spanFindings[i] || []).forEach(function (f2) { lines.push(''); lines.push(r.ft[f2]); });
            return lines.join('\n');
          };
          Model.prototype.geometry = function () {
            var m = this, width = Math.max(m.canvas.parentNode.clientWidth, 320), y = 84, tops = [], trackY = [];
            m.raw.lanes.forEach(function (lane, index) {
              tops.push(y); y += 6;
              for (var r = 0; r < lane[1]; r++) { trackY.push(y); y += RH; }
              if (index === 0) { m.stateY = y + 2; y += SH + 6; }
              y += 4;
            });
            m.W = width; m.G = width < 700 ? 96 : 140; m.P = width - m.G - 16; m.laneTops = tops; m.trackY = trackY;
            m.bottom = y; m.H = y + 22;
          };
          Model.prototype.x = function (t) { return this.G + (t - this.v0) * this.P / (this.v1 - this.v0); };
          Model.prototype.msAt = function (x) { return this.v0 + (Math.min(Math.max(x, this.G), this.G + this.P) - this.G) / this.P * (this.v1 - this.v0); };
          function fitted(text, width) {
            var fits = Math.floor((width - 6) / 6.3);
            if (fits < 3) { return ''; }
            return text.length <= fits ? text : text.slice(0, fits - 1) + '…';
          }
          function haloText(ctx, c, text, x, y) {
            ctx.lineWidth = 3; ctx.strokeStyle = c.bg; ctx.strokeText(text, x, y);
            ctx.fillStyle = c.fg; ctx.fillText(text, x, y);
          }
          Model.prototype.draw = function () {
            var m = this, r = m.raw, canvas = m.canvas, c = m.c || (m.c = colours(canvas));
            m.geometry();
            var W = m.W, H = m.H, G = m.G, right = G + m.P, dpr = window.devicePixelRatio || 1;
            if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
              canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
              canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
            }
            var ctx = canvas.getContext('2d'), i, j, k, x0, x1;
            ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
            ctx.clearRect(0, 0, W, H);
            ctx.font = '11px ' + c.font; ctx.textBaseline = 'alphabetic'; ctx.lineJoin = 'round';
            var v0 = m.v0, v1 = m.v1, sc = m.P / (v1 - v0);
            function X(t) { return G + (t - v0) * sc; }
            // Grid and ticks.
            // About one tick per 90 px (8 at most), so their labels never run together on a narrow chart.
            var step = tickStep(v1 - v0, Math.max(2, Math.min(8, Math.floor(m.P / 90))));
            ctx.textAlign = 'center'; ctx.fillStyle = c.muted; ctx.strokeStyle = c.grid; ctx.lineWidth = 1;
            for (var t = Math.ceil(v0 / step) * step; t <= v1 + step * 1e-9; t += step) {
              var tx = Math.round(X(t)) + 0.5;
              ctx.beginPath(); ctx.moveTo(tx, 16); ctx.lineTo(tx, m.bottom); ctx.stroke();
              ctx.fillText(tickLabel(t, step), Math.min(Math.max(tx, G + 20), W - 24), 12);
            }
            ctx.textAlign = 'left';
            // Lane labels and separators.
            function laneLabel(text, y) { ctx.fillStyle = c.muted; ctx.font = '600 11px ' + c.font; ctx.fillText(fitted(text, G + 2), 6, y); ctx.font = '11px ' + c.font; }
            laneLabel('phases', 34); laneLabel('milestones', 58);
            r.lanes.forEach(function (lane, index) {
              var top = m.laneTops[index];
              ctx.strokeStyle = c.line; ctx.beginPath(); ctx.moveTo(0, top + 0.5); ctx.lineTo(W, top + 0.5); ctx.stroke();
              laneLabel(lane[0], top + 18);
              if (!lane[2]) { ctx.fillStyle = c.muted; ctx.fillText('no readings', 6, top + 32); }
            });
            laneLabel('thread state', m.stateY + 11);
            // Phases, in their own lane.
            r.phases.forEach(function (ph) {
              x0 = Math.max(G, X(ph[1])); x1 = Math.min(right, X(ph[2]));
              if (x1 < G || x0 > right) { return; }
              ctx.fillStyle = getComputedStyle(canvas).getPropertyValue('--' + ph[0]).trim() || c.none;
              ctx.fillRect(x0, 20, Math.max(1, x1 - x0 - 1), 20);
              var text = fitted(ph[0] + ' ' + ph[3], x1 - x0);
              if (text) { ctx.fillStyle = c.label; ctx.fillText(text, x0 + 3, 34); }
            });
            // Milestones: a marker each; markers closer than 24 px share one label ("spawn +2"), and a label
            // with no room in either row joins the label before it, so labels never overlap or leave the
            // chart. Hovering a label's markers lists every milestone in it.
            var groups = [], visible = 0;
            r.marks.forEach(function (mk) {
              var mx = X(mk[1]);
              if (mx < G - 0.5 || mx > right + 0.5) { return; }
              visible++;
              ctx.strokeStyle = mk[2] ? c.frame : c.muted; ctx.fillStyle = ctx.strokeStyle;
              ctx.setLineDash(mk[2] ? [] : [2, 3]);
              ctx.beginPath(); ctx.moveTo(mx, 44); ctx.lineTo(mx, m.bottom); ctx.stroke(); ctx.setLineDash([]);
              ctx.beginPath(); ctx.moveTo(mx - 4, 44); ctx.lineTo(mx + 4, 44); ctx.lineTo(mx, 51); ctx.fill();
              var last = groups[groups.length - 1];
              if (last && mx - last.x1 < 24) { last.marks.push(mk); last.x1 = mx; } else { groups.push({ x0: mx, x1: mx, marks: [mk] }); }
            });
            var rows = [[], []], placed = [], more = ctx.measureText(' +99').width;
            groups.forEach(function (g) {
              // Room for a " +N" too: a label with no room of its own may join this one later.
              var w = ctx.measureText(g.marks[0][0]).width + more;
              var places = [[g.x1 + 5, g.x1 + 5 + w], [g.x0 - 5 - w, g.x0 - 5]];
              for (var row = 0; row < 2; row++) {
                for (var p = 0; p < 2; p++) {
                  var a = places[p][0], z = places[p][1];
                  if (a < G - 4 || z > W - 2) { continue; }
                  if (rows[row].some(function (s) { return s[0] < z + 8 && a < s[1] + 8; })) { continue; }
                  rows[row].push([a, z]); placed.push({ g: g, a: a, row: row });
                  return;
                }
              }
              var before = placed[placed.length - 1];
              if (before) { before.g.marks = before.g.marks.concat(g.marks); before.g.x1 = g.x1; }
            });
            ctx.lineWidth = 3; ctx.strokeStyle = c.bg; ctx.fillStyle = c.muted;
            m.markLabels = placed.map(function (p) {
              var text = p.g.marks[0][0] + (p.g.marks.length > 1 ? ' +' + (p.g.marks.length - 1) : '');
              ctx.strokeText(text, p.a, 62 + p.row * 12); ctx.fillText(text, p.a, 62 + p.row * 12);
              return [p.a, p.a + ctx.measureText(text).width, p.row, p.g.marks.length];
            });
            m.markGroups = placed.map(function (p) { return p.g; });
            m.marksInView = visible;
            // Spans, track by track: only those in view, those under a pixel merged.
            m.items = [];
            var dim = m.matchFlag !== null;
            for (var tr = 0; tr < m.tracks.length; tr++) {
              var list = m.tracks[tr], y = m.trackY[tr], items = [], bucket = null, main = m.trackLane[tr] === 0;
              m.items.push(items);
              var flush = function () {
                if (!bucket) { return; }
                var w = Math.max(1, bucket[1] - bucket[0]);
                ctx.globalAlpha = dim && !bucket[4] ? 0.3 : 1;
                ctx.fillStyle = bucket[4] ? c.found : c.merged; ctx.fillRect(bucket[0], y, w, RH - 3);
                ctx.globalAlpha = 1;
                if (w >= 26) { haloText(ctx, c, fitted('×' + bucket[2], w) || '', bucket[0] + 3, y + 11.5); }
                items.push([bucket[0], bucket[0] + w, bucket[3], bucket[5], bucket[2]]);
                bucket = null;
              };
              for (j = lowerBound(list, m.b, v0 - m.maxDur[tr]); j < list.length; j++) {
                i = list[j];
                if (m.b[i] > v1) { break; }
                if (m.e[i] < v0) { continue; }
                x0 = X(m.b[i]); x1 = X(m.e[i]);
                if (x1 - x0 < 1) {
                  if (bucket && x0 <= bucket[1] + 1) {
                    bucket[1] = Math.max(bucket[1], x1); bucket[2]++; bucket[5] = j;
                    if (dim && m.matchFlag[i]) { bucket[4] = true; }
                  } else {
                    flush(); bucket = [x0, x1, 1, j, dim && m.matchFlag[i] === 1, j];
                  }
                  continue;
                }
                flush();
                x0 = Math.max(x0, G); x1 = Math.min(x1, right);
                var w = x1 - x0;
                ctx.globalAlpha = dim && !m.matchFlag[i] ? 0.3 : 1;
                if (main || r.lanes[m.trackLane[tr]][2]) {
                  var segs = m.segments(i), sx = X(m.b[i]), full = X(m.e[i]) - sx;
                  for (k = 0; k < segs.length; k++) {
                    var sw = segs[k][1] * full, a0 = Math.max(sx, G), a1 = Math.min(sx + sw, right);
                    if (a1 > a0) {
                      ctx.fillStyle = segs[k][0] < 0 ? c.none : c.kinds[segs[k][0]];
                      if (segs[k][0] < 0) { ctx.globalAlpha *= 0.4; }
                      ctx.fillRect(a0, y, a1 - a0, RH - 3);
                      if (segs[k][0] < 0) { ctx.globalAlpha = dim && !m.matchFlag[i] ? 0.3 : 1; }
                      if (segs[k][2]) { ctx.fillStyle = c.hatch; ctx.fillRect(a0, y, a1 - a0, RH - 3); }
                    }
                    sx += sw;
                  }
                } else {
                  ctx.fillStyle = c.none; ctx.fillRect(x0, y, w, RH - 3);
                }
                if (w > 2) { ctx.strokeStyle = c.bg; ctx.lineWidth = 1; ctx.strokeRect(x0 + 0.5, y + 0.5, w - 1, RH - 4); }
                if (m.sev[i]) {
                  ctx.strokeStyle = c[['', 'sev-info', 'sev-warning', 'sev-critical'][m.sev[i]]]; ctx.lineWidth = 2;
                  ctx.strokeRect(x0 + 1, y + 1, Math.max(1, w - 2), RH - 5);
                }
                if (dim && m.matchFlag[i]) { ctx.strokeStyle = c.found; ctx.lineWidth = 2; ctx.strokeRect(x0 + 1, y + 1, Math.max(1, w - 2), RH - 5); }
                ctx.globalAlpha = 1;
                var label = fitted(r.str[r.nm[i]], w);
                if (label) { haloText(ctx, c, label, x0 + 3, y + 11.5); }
                items.push([x0, x1, j, -1, 1]);
              }
              flush();
            }
            // The main thread's state: at each moment, the split of the innermost span running then.
            // Spans under a pixel are summed per pixel column (their own times by kind), so the lane
            // stays whole however far out the view is.
            var sy = m.stateY, columns = Math.ceil(W) + 1;
            if (!m.bins || m.bins.length !== columns * 9) { m.bins = new Float64Array(columns * 9); }
            var bins = m.bins, touched = [];
            function stack(xa, xb, parts, total) {
              var yy = sy;
              for (var p = 0; p < parts.length; p++) {
                var h = total > 0 ? SH * parts[p][1] / total : SH;
                ctx.fillStyle = c.kinds[parts[p][0]]; ctx.fillRect(xa, yy, xb - xa, h);
                if (parts[p][2]) { ctx.fillStyle = c.hatch; ctx.fillRect(xa, yy, xb - xa, h); }
                yy += h;
              }
            }
            ctx.fillStyle = c.grid; ctx.fillRect(G, sy, m.P, SH);
            ctx.fillStyle = c.hatch; ctx.fillRect(G, sy, m.P, SH);
            // Between spans: the sampler's readings, where it took any (counts, so hatched as estimates).
            (r.gp || []).forEach(function (gap) {
              if (gap[1] < v0 || gap[0] > v1) { return; }
              var ga = Math.max(X(gap[0]), G), gz = Math.min(X(gap[1]), right), total = 0;
              if (gz - ga < 1) { gz = Math.min(ga + 1, right + 1); }
              gap[2].forEach(function (part) { total += part[1]; });
              stack(ga, gz, gap[2].map(function (part) { return [part[0], part[1], true]; }), total);
            });
            for (tr = 0; tr < m.tracks.length && m.trackLane[tr] === 0; tr++) {
              var spans = m.tracks[tr];
              for (j = lowerBound(spans, m.b, v0 - m.maxDur[tr]); j < spans.length; j++) {
                i = spans[j];
                if (m.b[i] > v1) { break; }
                if (m.e[i] < v0) { continue; }
                x0 = Math.max(X(m.b[i]), G); x1 = Math.min(X(m.e[i]), right);
                if (x1 - x0 >= 1) {
                  var own = m.segments(i).filter(function (seg) { return seg[0] >= 0; }), total = 0;
                  own.forEach(function (seg) { total += seg[1]; });
                  stack(x0, x1, own, total);
                  continue;
                }
                // Under a pixel: its own time by kind straight from the columns (no arrays made per span).
                var col = Math.max(0, Math.min(columns - 1, Math.floor(x0))), at = col * 9, raw = m.raw;
                if (bins[at + 8] === 0) { touched.push(col); }
                var mine = raw.sf[i], used = 0;
                if (raw.cp[i] >= 0) { bins[at] += raw.cp[i]; used += raw.cp[i]; }
                if (raw.q[i] > 0) { bins[at + 1] += raw.q[i]; used += raw.q[i]; }
                for (var kb = m.bkFirst[i]; kb >= 0 && kb < raw.bk.length && raw.bk[kb] === i; kb += 3) {
                  var wk = WAITK[raw.wk[raw.bk[kb + 1]]];
                  bins[at + (wk === undefined ? 6 : wk)] += raw.bk[kb + 2]; used += raw.bk[kb + 2];
                }
                if (mine > used) { bins[at + 7] += mine - used; }
                bins[at + 8] += 1;
              }
              // This track's columns, over the shallower tracks' (the innermost span wins).
              for (var t2 = 0; t2 < touched.length; t2++) {
                var at2 = touched[t2] * 9, parts = [], sum = 0;
                for (var kk = 0; kk < 8; kk++) { if (bins[at2 + kk] > 0) { parts.push([kk, bins[at2 + kk], false]); sum += bins[at2 + kk]; } }
                if (parts.length) { stack(touched[t2], touched[t2] + 1, parts, sum); }
                for (kk = 0; kk < 9; kk++) { bins[at2 + kk] = 0; }
              }
              touched.length = 0;
            }
            // Highlighted (a finding's) and selected spans, drawn over whatever merged them.
            function ring(index, colour, width) {
              var a = X(m.b[index]), z = X(m.e[index]), yy = m.trackY[m.raw.t[index]];
              if (z < G || a > right) { return; }
              if (z - a < 3) { var mid = (a + z) / 2; a = mid - 1.5; z = mid + 1.5; }
              a = Math.max(a, G - 2); z = Math.min(z, right + 2);
              ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.strokeRect(a - width / 2, yy - width / 2, z - a + width, RH - 3 + width);
            }
            if (m.hl) { m.hl.forEach(function (index) { ring(index, c.fg, 2); }); }
            if (m.sel >= 0) {
              ring(m.sel, c.focus, document.activeElement === canvas ? 3 : 2);
            }
            // The budget.
            if (r.budget !== undefined) {
              var bx = X(r.budget);
              ctx.strokeStyle = c.budget; ctx.fillStyle = c.budget; ctx.lineWidth = 1.5; ctx.setLineDash([6, 3]);
              ctx.font = '600 11px ' + c.font;
              if (bx >= G && bx <= right) {
                ctx.beginPath(); ctx.moveTo(bx, 16); ctx.lineTo(bx, m.bottom); ctx.stroke();
                ctx.textAlign = bx > right - 60 ? 'right' : 'center'; ctx.fillText(r.budgetText, bx, m.bottom + 15);
              } else {
                ctx.textAlign = 'right'; ctx.fillText(r.budgetText + (bx > right ? ' → beyond this view' : ' ← before this view'), right, m.bottom + 15);
              }
              ctx.setLineDash([]); ctx.textAlign = 'left'; ctx.font = '11px ' + c.font;
            }
            if (m.drag && m.drag.x1 !== undefined) {
              ctx.fillStyle = c.focus; ctx.globalAlpha = 0.18;
              ctx.fillRect(Math.min(m.drag.x0, m.drag.x1), 0, Math.abs(m.drag.x1 - m.drag.x0), m.bottom);
              ctx.globalAlpha = 1;
            }
          };

        """#
}
