extension HTMLReport {
    /// The second part of ``script``: the thread-state words, zoom, search, keys and findings.
    static let scriptInteraction = #"""
          // What the thread-state lane shows at time t (ms), in words: for its tooltip.
          Model.prototype.stateAt = function (t) {
            var m = this, r = m.raw, list = m.tracks[0] || [], j, inSpan = false;
            for (var tr = 0; tr < m.tracks.length && m.trackLane[tr] === 0 && !inSpan; tr++) {
              list = m.tracks[tr];
              for (j = lowerBound(list, m.b, t - m.maxDur[tr]); j < list.length && m.b[list[j]] <= t; j++) {
                if (m.e[list[j]] >= t) { inSpan = true; break; }
              }
            }
            if (inSpan) { return 'the split of the innermost span running then (choose the span for its numbers)'; }
            var names = ['running or waiting for a CPU', '', 'disk', 'network', 'lock', 'sleep', 'other waits'];
            var gap = (r.gp || []).filter(function (g) { return g[0] <= t && t <= g[1]; })[0];
            if (gap) {
              var total = 0;
              gap[2].forEach(function (part) { total += part[1]; });
              return 'between spans, ' + fmt(gap[0]) + ' → ' + fmt(gap[1]) + ': ' + total + ' sampler reading(s): '
                + gap[2].map(function (part) { return names[part[0]] + ' ' + part[1]; }).join(', ') + ' (an estimate from samples)';
            }
            return 'between spans: no readings here (the tracer reads CPU and waits only at span boundaries'
              + (r.sm ? '; no sample of the main thread fell here)' : ', and no sampler ran in this launch)');
          };
          Model.prototype.zoomTo = function (v0, v1) {
            var m = this, min = 0.0002;
            if (v1 - v0 < min) { var mid = (v0 + v1) / 2; v0 = mid - min / 2; v1 = mid + min / 2; }
            if (v1 - v0 > m.end) { v0 = 0; v1 = m.end; }
            if (v0 < 0) { v1 -= v0; v0 = 0; }
            if (v1 > m.end) { v0 -= v1 - m.end; v1 = m.end; }
            m.v0 = Math.max(0, v0); m.v1 = v1;
            m.draw();
          };
          // Zooms until span i is drawn alone (wide enough never to be merged) and in view.
          Model.prototype.reveal = function (i, always) {
            var m = this, width = (m.e[i] - m.b[i]) * m.P / (m.v1 - m.v0);
            if (!always && width >= 4 && m.b[i] >= m.v0 && m.e[i] <= m.v1) { m.draw(); return; }
            var pad = Math.max((m.e[i] - m.b[i]) * 0.3, 0.0001);
            m.zoomTo(m.b[i] - pad, m.e[i] + pad);
          };
          Model.prototype.select = function (i) {
            this.sel = i;
            if (i >= 0 && this.panel) { this.panel.textContent = this.details(i); }
          };
          Model.prototype.highlight = function (id) {
            var m = this, f = m.findingIndex[id];
            if (f === undefined) { return false; }
            var spans = m.raw.fsp[f];
            if (!spans.length) { return false; }
            var longest = spans[0];
            spans.forEach(function (s) { if (m.raw.d[s] > m.raw.d[longest]) { longest = s; } });
            m.hl = spans.length > 2000 ? [longest] : spans;
            m.select(longest);
            m.reveal(longest, true);
            return true;
          };
          Model.prototype.search = function (text) {
            var m = this, r = m.raw;
            text = text.trim().toLowerCase();
            m.cur = -1;
            if (!text) { m.matches = null; m.matchFlag = null; m.found.textContent = ''; m.draw(); return 0; }
            if (!m.lower) { m.lower = r.str.map(function (s) { return s.toLowerCase(); }); }
            var hit = new Uint8Array(r.str.length), flag = new Uint8Array(m.n), list = [];
            for (var s = 0; s < hit.length; s++) { hit[s] = m.lower[s].indexOf(text) >= 0 ? 1 : 0; }
            for (var i = 0; i < m.n; i++) { if (hit[r.nm[i]]) { flag[i] = 1; list.push(i); } }
            m.matches = list; m.matchFlag = flag;
            m.found.textContent = list.length + ' span(s) match' + (list.length ? '; Enter or ▼ steps through them' : '');
            m.draw();
            return list.length;
          };
          Model.prototype.step = function (direction) {
            var m = this, list = m.matches;
            if (!list || !list.length) { return -1; }
            m.cur = ((m.cur < 0 && direction < 0 ? 0 : m.cur) + direction + list.length) % list.length;
            m.select(list[m.cur]);
            m.reveal(list[m.cur], false);
            m.found.textContent = 'match ' + (m.cur + 1) + ' of ' + list.length;
            return list[m.cur];
          };
          Model.prototype.hit = function (x, y) {
            var m = this;
            for (var tr = 0; tr < m.trackY.length; tr++) {
              if (y < m.trackY[tr] || y > m.trackY[tr] + RH - 3 || !m.items) { continue; }
              var items = m.items[tr] || [];
              for (var k = 0; k < items.length; k++) {
                if (x >= items[k][0] - 1 && x <= items[k][1] + 1) { return { track: tr, item: items[k] }; }
              }
            }
            return null;
          };
          Model.prototype.move = function (key) {
            var m = this, r = m.raw, i = m.sel, list, j;
            if (i < 0) {
              list = m.tracks[0] || [];
              j = Math.min(lowerBound(list, m.b, m.v0), list.length - 1);
              if (j >= 0) { m.select(list[j]); m.reveal(list[j], false); }
              return;
            }
            var tr = r.t[i], mid = (m.b[i] + m.e[i]) / 2, target = -1;
            if (key === 'ArrowRight' || key === 'ArrowLeft') {
              list = m.tracks[tr]; j = m.pos[i] + (key === 'ArrowRight' ? 1 : -1);
              if (j >= 0 && j < list.length) { target = list[j]; }
            } else {
              var to = tr + (key === 'ArrowDown' ? 1 : -1);
              if (to < 0 || to >= m.tracks.length) { return; }
              list = m.tracks[to];
              j = lowerBound(list, m.b, key === 'ArrowDown' ? m.b[i] : mid);
              if (key === 'ArrowUp' || j >= list.length || m.b[list[j]] > m.e[i]) { j = Math.max(0, j - 1); }
              if (j < list.length) { target = list[j]; }
            }
            if (target >= 0) { m.select(target); m.reveal(target, false); }
          };
          function attach(m) {
            var canvas = m.canvas, fig = m.fig, controls = fig.querySelector('.controls');
            if (controls) { controls.hidden = false; }
            m.draw();
            function local(event) { var box = canvas.getBoundingClientRect(); return [event.clientX - box.left, event.clientY - box.top]; }
            canvas.addEventListener('mousedown', function (event) {
              if (event.button !== 0) { return; }
              m.drag = { x0: local(event)[0], start: event.clientX };
            });
            canvas.addEventListener('mousemove', function (event) {
              var p = local(event);
              if (m.drag) {
                if (Math.abs(event.clientX - m.drag.start) >= 4) { m.drag.x1 = p[0]; m.draw(); }
                return;
              }
              if (p[1] >= 40 && p[1] <= 76) {
                var near = (m.markGroups || []).filter(function (g) { return p[0] >= g.x0 - 6 && p[0] <= g.x1 + 6; })[0];
                canvas.title = near ? near.marks.map(function (mk) { return mk[0] + ' at ' + fmt(mk[1]); }).join('\n') : '';
                return;
              }
              if (p[1] >= m.stateY && p[1] <= m.stateY + SH) { canvas.title = m.stateAt(m.msAt(p[0])); return; }
              var found = m.hit(p[0], p[1]);
              canvas.title = !found ? '' : found.item[3] >= 0 ? found.item[4] + ' spans under a pixel: click to zoom in'
                : m.raw.str[m.raw.nm[m.tracks[found.track][found.item[2]]]];
            });
            window.addEventListener('mouseup', function (event) {
              if (!m.drag) { return; }
              var d = m.drag, p = local(event);
              m.drag = null;
              if (d.x1 !== undefined) {
                var a = m.msAt(Math.min(d.x0, p[0])), z = m.msAt(Math.max(d.x0, p[0]));
                m.zoomTo(a, z);
                return;
              }
              var found = m.hit(p[0], p[1]);
              if (!found) { return; }
              var list = m.tracks[found.track];
              if (found.item[3] >= 0) {
                var first = list[found.item[2]], last = list[found.item[3]];
                var pad = (m.e[last] - m.b[first]) * 0.1 + 0.0001;
                m.zoomTo(m.b[first] - pad, m.e[last] + pad);
              } else {
                m.select(list[found.item[2]]); m.draw();
              }
            });
            canvas.addEventListener('wheel', function (event) {
              var range = m.v1 - m.v0;
              if (event.ctrlKey || event.metaKey) {
                event.preventDefault();
                var at = m.msAt(local(event)[0]), f = event.deltaY > 0 ? 1.25 : 0.8;
                m.zoomTo(at - (at - m.v0) * f, at + (m.v1 - at) * f);
              } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
                event.preventDefault();
                var delta = (event.shiftKey ? event.deltaY : event.deltaX) > 0 ? 0.1 : -0.1;
                m.zoomTo(m.v0 + range * delta, m.v1 + range * delta);
              }
            }, { passive: false });
            canvas.addEventListener('keydown', function (event) {
              var range = m.v1 - m.v0, mid = (m.v0 + m.v1) / 2;
              if (event.key.indexOf('Arrow') === 0) { event.preventDefault(); m.move(event.key); }
              else if (event.key === '+' || event.key === '=') { m.zoomTo(mid - range / 4, mid + range / 4); }
              else if (event.key === '-' || event.key === '_') { m.zoomTo(mid - range, mid + range); }
              else if (event.key === 'Home') { event.preventDefault(); m.zoomTo(0, m.end); }
            });
            canvas.addEventListener('focus', function () { if (m.sel < 0) { m.move(''); } else { m.draw(); } });
            canvas.addEventListener('blur', function () { m.draw(); });
            if (controls) {
              controls.addEventListener('click', function (event) {
                var button = event.target.closest && event.target.closest('[data-zoom], [data-step]');
                if (!button) { return; }
                if (button.hasAttribute('data-step')) { m.step(parseInt(button.getAttribute('data-step'), 10)); return; }
                var range = m.v1 - m.v0, mid = (m.v0 + m.v1) / 2, what = button.getAttribute('data-zoom');
                if (what === 'in') { m.zoomTo(mid - range / 4, mid + range / 4); }
                if (what === 'out') { m.zoomTo(mid - range, mid + range); }
                if (what === 'left') { m.zoomTo(m.v0 - range / 3, m.v1 - range / 3); }
                if (what === 'right') { m.zoomTo(m.v0 + range / 3, m.v1 + range / 3); }
                if (what === 'all') { m.zoomTo(0, m.end); }
              });
              var input = controls.querySelector('.find');
              input.addEventListener('input', function () { m.search(input.value); });
              input.addEventListener('keydown', function (event) {
                if (event.key === 'Enter') { event.preventDefault(); m.step(event.shiftKey ? -1 : 1); }
              });
            }
          }
          var figures = document.querySelectorAll('figure.tl');
          for (var f = 0; f < figures.length; f++) {
            if (!figures[f].querySelector('script.tl-data')) { continue; }
            var model = new Model(figures[f]);
            models.push(model);
            attach(model);
          }
          window.launchprof = { timelines: models };
          // The strip charts scale with the page: their text is scaled back up to 11 px however narrow,
          // then any label the larger text pushed past an edge is moved back inside the chart.
          function keepInside(svg) {
            var texts = svg.querySelectorAll('text'), right = svg.viewBox.baseVal.width;
            for (var t = 0; t < texts.length; t++) {
              var el = texts[t];
              if (!el.hasAttribute('data-x')) { el.setAttribute('data-x', el.getAttribute('x')); }
              el.setAttribute('x', el.getAttribute('data-x'));
              var box = el.getBBox(), shift = 0;
              if (box.x + box.width > right - 2) { shift = right - 2 - (box.x + box.width); }
              if (box.x + shift < 2) { shift = 2 - box.x; }
              if (shift) { el.setAttribute('x', (parseFloat(el.getAttribute('data-x')) + shift).toFixed(1)); }
            }
          }
          // Narrower than its 1200 units, a strip chart is stretched upward by the same factor (its rows,
          // dots and text keep their size on screen), so the scaled-up text never runs into the dots.
          function stretch(svg, k) {
            if (!svg.hasAttribute('data-h')) { svg.setAttribute('data-h', svg.viewBox.baseVal.height); }
            var names = { line: ['y1', 'y2'], text: ['y'], rect: ['y', 'height'], circle: ['cy', 'r'] };
            Object.keys(names).forEach(function (tag) {
              var items = svg.querySelectorAll(tag);
              for (var i = 0; i < items.length; i++) {
                names[tag].forEach(function (attribute) {
                  var el = items[i], key = 'data-' + attribute;
                  if (!el.hasAttribute(attribute)) { return; }
                  if (!el.hasAttribute(key)) { el.setAttribute(key, el.getAttribute(attribute)); }
                  el.setAttribute(attribute, (parseFloat(el.getAttribute(key)) * k).toFixed(1));
                });
              }
            });
            svg.setAttribute('viewBox', '0 0 ' + svg.viewBox.baseVal.width + ' ' + (parseFloat(svg.getAttribute('data-h')) * k).toFixed(1));
          }
          // Tick labels that would run into the one before are hidden (their grid line stays).
          function thinTicks(svg) {
            var ticks = svg.querySelectorAll('text.tick'), end = -Infinity;
            for (var t = 0; t < ticks.length; t++) {
              ticks[t].style.display = '';
              var box = ticks[t].getBBox();
              if (box.x < end + 8) { ticks[t].style.display = 'none'; } else { end = box.x + box.width; }
            }
          }
          function fitStrips() {
            var strips = document.querySelectorAll('svg.strip');
            for (var s = 0; s < strips.length; s++) {
              var width = strips[s].getBoundingClientRect().width;
              if (width > 0) {
                var k = Math.max(1, 1200 / width);
                strips[s].style.setProperty('--k', k.toFixed(3));
                stretch(strips[s], k);
                keepInside(strips[s]);
                thinTicks(strips[s]);
              }
            }
          }
          fitStrips();
          var redraw = function () { fitStrips(); models.forEach(function (m) { m.draw(); }); };
          window.addEventListener('resize', redraw);
          if (window.matchMedia) {
            var scheme = window.matchMedia('(prefers-color-scheme: dark)');
            if (scheme.addEventListener) { scheme.addEventListener('change', function () { models.forEach(function (m) { m.c = null; }); redraw(); }); }
          }
          function highlight(id) {
            for (var k = 0; k < models.length; k++) {
              if (models[k].highlight(id)) { models[k].canvas.scrollIntoView({ block: 'center', inline: 'nearest' }); return; }
            }
          }
          document.addEventListener('click', function (event) {
            var finding = event.target && event.target.closest && event.target.closest('[data-finding]');
            if (finding) { highlight(finding.getAttribute('data-finding')); }
          });
          document.addEventListener('keydown', function (event) {
            if (event.key !== 'Enter') { return; }
            var finding = event.target && event.target.closest && event.target.closest('[data-finding]');
            if (finding) { highlight(finding.getAttribute('data-finding')); }
          });
        })();

        """#
}
