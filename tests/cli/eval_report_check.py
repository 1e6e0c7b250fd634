"""eval_report_check.py -- checks of squint eval's HTML report, read as a
browser would read it, against the records it was written from.

usage: eval_report_check.py CHECK REPORT [RECORDS]

CHECK is one of:
  anchors        every id once, every internal link has a target, the
                 contents list every item section
  summary-links  each summary row links to a list that holds exactly the
                 system's disagreements (in that difficulty), as the
                 records say
  filter-attrs   every item section carries the system, difficulty and
                 verdict the records give it, and without script nothing
                 is hidden: no hidden attribute, no display:none but the
                 empty filter bar's, the filter bar empty
  svg            every inline SVG of the page is well-formed XML (and there
                 are the three charts)
  charts         each bar of the charts (per system, per difficulty, and
                 why EX-verified is below EX-test) is as long as the
                 records' counts say
  inked          (REPORT is a PNG screenshot) more than 1 % of its pixels
                 differ from its most common colour: it is not blank
  svg-files      (RECORDS is a directory) write each inline SVG of the
                 page to its own file there, NAME.svg by its id
  matrix         the cross-system matrix has a row for exactly the items
                 where some system fails EX-test or is refuted, a mark in
                 exactly those cells, each row's label linking to the
                 item's first section and each refutation to its section
  highlight      in each disagreement, the rows and cells of the gold and
                 prediction results highlighted are exactly those that
                 make them differ (bag matching, then rows paired in
                 order, or positions when only the order differs)
  joingraphs     (no check: prints) each join query graph's id, and per
                 edge its class and conditions: "jg-d-5-gold: edge only
                 T1.a = T2.b | ..."; nothing when there are none
  filtered       (REPORT is the DOM Chromium dumped after the script ran,
                 RECORDS the query the page was opened with, as
                 system=NAME&verdict=different): the filter controls are
                 there, and exactly the item sections that do not match
                 the query are hidden (at least one of each), and the
                 matrix rows with no matching cell

Prints one line saying what was found; exits 0 when the check holds, 1
when it does not.  The expectations are computed here from the records
(JSON lines), not taken from the page.
"""
import collections
import html.parser
import json
import re
import sys
import os
import struct
import xml.etree.ElementTree as ET
import zlib


class Page(html.parser.HTMLParser):
    """The parts of the page the checks look at."""

    def __init__(self):
        super().__init__()
        self.ids = collections.Counter()
        self.hrefs = []          # every internal link's target
        self.items = []          # item sections: their attributes
        self.toc = []            # links inside the contents
        self.lists = {}          # id of an element -> internal links inside it
        self.rows = []           # summary rows: (table number, link target)
        self.stack = []          # open elements with an id: (tag, id)
        self.tables = 0
        self.in_sum = 0
        self.nav = 0
        self.first_link_in_row = False
        self.n_hidden = 0        # elements with a hidden attribute
        self.style = ''          # the text of the style elements
        self.in_style = 0
        self.n_filters = 0       # filter places, and the text inside them
        self.filters_text = ''
        self.in_filters = 0
        self.mrows = []          # the matrix's rows: attributes, cells, links (cell, target)
        self.row = None

    def handle_starttag(self, tag, a):
        a = dict(a)
        self.n_hidden += 'hidden' in a
        self.in_style += tag == 'style'
        if a.get('id') == 'filters':
            self.n_filters += 1
            self.in_filters = 1
        elif self.in_filters:
            self.filters_text += '<%s>' % tag
        if 'id' in a:
            self.ids[a['id']] += 1
            self.stack.append((tag, a['id']))
            self.lists[a['id']] = []
        if tag == 'nav':
            self.nav = 1
        if tag == 'table' and 'sum' in (a.get('class') or '').split():
            self.tables += 1
            self.in_sum = 1
        if tag == 'tr':
            self.first_link_in_row = True
        href = a.get('href') or ''
        if tag == 'a' and href.startswith('#'):
            self.hrefs.append(href[1:])
            if self.nav:
                self.toc.append(href[1:])
            for _, i in self.stack:
                self.lists[i].append(href[1:])
            if self.in_sum and self.first_link_in_row:
                self.rows.append((self.tables, href[1:]))
            self.first_link_in_row = False
        if tag == 'section' and 'item' in (a.get('class') or '').split():
            self.items.append(a)
        if tag == 'tr':
            self.row = None
        if tag == 'tr' and 'mrow' in (a.get('class') or '').split():
            self.row = {'attrs': a, 'cells': [], 'links': []}
            self.mrows.append(self.row)
        if self.row is not None and tag == 'td':
            self.row['cells'].append(a)
        if self.row is not None and tag == 'a':
            self.row['links'].append((len(self.row['cells']) - 1, href[1:]))

    def handle_data(self, data):
        if self.in_style:
            self.style += data
        if self.in_filters:
            self.filters_text += data

    def handle_endtag(self, tag):
        if tag == 'style':
            self.in_style = 0
        if tag == 'div':
            self.in_filters = 0
        if tag == 'nav':
            self.nav = 0
        if tag == 'table':
            self.in_sum = 0
            self.row = None
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()


def load(path):
    p = Page()
    with open(path, encoding='utf-8') as f:
        p.feed(f.read())
    return p


def records(path):
    """The records, first sight of each item only, in gold order."""
    seen, out = set(), []
    with open(path, encoding='utf-8') as f:
        for line in f:
            r = json.loads(line)
            if r['item'] not in seen:
                seen.add(r['item'])
                out.append(r)
    return sorted(out, key=lambda r: r['item'])


def disagreeing(r, s):
    """Whether system s's prediction on record r gets a disagreement
    section: EX-test accepts it, and a counterexample refutes it."""
    return s.get('ex') in ('correct', 'no-db') and (s.get('verdict') == 'different' or s.get('refuted_by'))


def check_anchors(page, _):
    dup = [i for i, n in page.ids.items() if n > 1]
    dangling = [h for h in page.hrefs if h not in page.ids]
    untoc = [a.get('id') for a in page.items if a.get('id') is None or a.get('id') not in page.toc]
    msg = 'items=%d dup=%d dangling=%d untoc=%d' % (len(page.items), len(dup), len(dangling), len(untoc))
    return bool(page.items) and not dup and not dangling and not untoc, msg


def check_summary_links(page, recs):
    # the sections of each (system, difficulty), from the records, in the
    # order the page numbers them (gold order, systems in order)
    want = collections.defaultdict(list)
    n = 0
    for r in recs:
        for s in r['systems']:
            if disagreeing(r, s):
                n += 1
                want[(s['name'], None)].append('d-%d' % n)
                want[(s['name'], r.get('difficulty'))].append('d-%d' % n)
    names = [s['name'] for s in recs[0]['systems']] if recs else []
    diffs = []
    for r in recs:
        if r.get('difficulty') and r['difficulty'] not in diffs:
            diffs.append(r['difficulty'])
    # the summary tables (those whose rows link): the whole run, then one
    # per difficulty, in order of appearance
    rows = collections.defaultdict(list)
    for table, target in page.rows:
        rows[table].append(target)
    tables = sorted(rows)
    bad, checked = [], 0
    if len(tables) != 1 + len(diffs):
        bad.append('%d summary tables with links, want %d' % (len(tables), 1 + len(diffs)))
    for t, group in zip(tables, [None] + diffs):
        if len(rows[t]) != len(names):
            bad.append('table %d has %d row links for %d systems' % (t, len(rows[t]), len(names)))
            continue
        for name, target in zip(names, rows[t]):
            got = [h for h in page.lists.get(target, []) if h.startswith('d-')]
            checked += 1
            if sorted(got) != sorted(want[(name, group)]):
                bad.append('%s/%s links to %s holding %s, want %s' % (name, group, target, got, want[(name, group)]))
    return checked > 0 and not bad, 'rows=%d %s' % (checked, '; '.join(bad) or 'all match')


def expected_sections(recs):
    """(id, system, difficulty, verdict) of each item section, in page order."""
    out, d, l = [], 0, 0
    for r in recs:
        for s in r['systems']:
            if disagreeing(r, s):
                d += 1
                verdict = 'different' if s.get('verdict') == 'different' else 'refuted'
                out.append(('d-%d' % d, s['name'], r.get('difficulty'), verdict))
    for r in recs:
        if r.get('lint'):
            l += 1
            out.append(('l-%d' % l, None, r.get('difficulty'), 'lint'))
    return out


def check_filter_attrs(page, recs):
    got = [(a.get('id'), a.get('data-system'), a.get('data-difficulty'), a.get('data-verdict')) for a in page.items]
    want = expected_sections(recs)
    bad = []
    if sorted(got, key=str) != sorted(want, key=str):
        bad.append('sections %s, want %s' % (got, want))
    if page.n_hidden:
        bad.append('%d elements hidden' % page.n_hidden)
    rules = [r for r in page.style.replace(' ', '').split('}') if 'display:none' in r or 'visibility:hidden' in r]
    if rules != ['#filters:empty{display:none']:
        bad.append('hiding style rules %s' % rules)
    if page.filters_text.strip() or page.n_filters != 1:
        bad.append('%d filter places, holding %r' % (page.n_filters, page.filters_text))
    return bool(want) and not bad, 'sections=%d %s' % (len(got), '; '.join(bad) or 'all shown, attributes right')


def fail_token(s):
    """What counts against system s's prediction, as the matrix marks it."""
    if s.get('ex') in ('correct', 'no-db'):
        v = s.get('verdict')
        if v in ('different', 'column-count'):
            return 'different'
        if v == 'different-under-ties':
            return 'ties'
        return 'refuted' if s.get('refuted_by') else None
    return 'ex-fail' if s.get('ex') in ('wrong', 'error', 'timeout', 'too-big', 'denied') else None


def check_matrix(page, recs):
    # the id of each record's sections: disagreements by system, and its lint section
    section_of, d, l = {}, 0, 0
    for r in recs:
        for s in r['systems']:
            if disagreeing(r, s):
                d += 1
                section_of[(r['item'], s['name'])] = 'd-%d' % d
    for r in recs:
        if r.get('lint'):
            l += 1
            section_of[(r['item'], None)] = 'l-%d' % l
    want = {}
    for r in recs:
        marks = [(s['name'], fail_token(s)) for s in r['systems']]
        if any(t for _, t in marks):
            want['i-%d' % r['item']] = (r, marks)
    got = {row['attrs'].get('id'): row for row in page.mrows}
    bad = []
    if list(got) != list(want):
        bad.append('rows %s, want %s' % (list(got), list(want)))
    for rid, (r, marks) in want.items():
        row = got.get(rid)
        if not row:
            continue
        cells = [(c.get('data-system'), c.get('data-verdict')) for c in row['cells'][1:]]
        if cells != [(n, t) if t else (None, None) for n, t in marks]:
            bad.append('%s cells %s, want %s' % (rid, cells, marks))
        firsts = [section_of[(r['item'], n)] for n, _ in marks if (r['item'], n) in section_of]
        first = firsts[0] if firsts else section_of.get((r['item'], None))
        label = [t for c, t in row['links'] if c == 0]
        if label != ([first] if first else []):
            bad.append('%s label links to %s, want %s' % (rid, label, first))
        for k, (n, t) in enumerate(marks, start=1):
            links = [t2 for c, t2 in row['links'] if c == k]
            should = [section_of[(r['item'], n)]] if (r['item'], n) in section_of else []
            if links != should:
                bad.append('%s %s links to %s, want %s' % (rid, n, links, should))
    return bool(want) and not bad, 'rows=%d %s' % (len(got), '; '.join(bad[:4]) or 'as the records say')


class Results(html.parser.HTMLParser):
    """Per item section, the result tables (inside div.res): per table
    its rows, each (highlighted, [cell highlighted ...])."""

    def __init__(self):
        super().__init__()
        self.by_section, self.section, self.res, self.table = {}, None, 0, None

    def handle_starttag(self, tag, a):
        a = dict(a)
        cls = (a.get('class') or '').split()
        if tag == 'section' and 'item' in cls:
            self.section = a.get('id')
            self.by_section[self.section] = []
        elif tag == 'div' and 'res' in cls:
            self.res = 1
        elif tag == 'table' and self.res:
            self.table = []
            self.by_section[self.section].append(self.table)
        elif tag == 'tr' and self.table is not None:
            self.table.append(('diff' in cls, []))
        elif tag == 'td' and self.table is not None and self.table:
            self.table[-1][1].append('diff' in cls)

    def handle_endtag(self, tag):
        if tag == 'div':
            self.res = 0
            self.table = None
        elif tag == 'table':
            self.table = None


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return a == b


def same_row(a, b):
    return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))


def expected_marks(g, p, gw, pw):
    """Row and cell flags of results g and p (lists of rows), as the
    report should highlight them."""
    gm = [[False, [False] * len(r)] for r in g]
    pm = [[False, [False] * len(r)] for r in p]

    def pair(i, j):
        gm[i][0] = pm[j][0] = True
        for k in range(max(gw, pw)):
            x = g[i][k] if k < len(g[i]) else None
            y = p[j][k] if k < len(p[j]) else None
            d = k >= len(g[i]) or k >= len(p[j]) or not same(x, y)
            if k < len(g[i]):
                gm[i][1][k] = d
            if k < len(p[j]):
                pm[j][1][k] = d
    taken = [False] * len(p)
    for i, row in enumerate(g):
        j = next((j for j in range(len(p)) if not taken[j] and same_row(row, p[j])), None)
        if j is None:
            gm[i][0] = True
        else:
            taken[j] = True
    for j in range(len(p)):
        pm[j][0] = not taken[j]
    lg = [i for i in range(len(g)) if gm[i][0]]
    lp = [j for j in range(len(p)) if pm[j][0]]
    if lg or lp:
        if len(lg) == len(lp):
            for i, j in zip(lg, lp):
                pair(i, j)
    else:
        for i in range(min(len(g), len(p))):
            if not same_row(g[i], p[i]):
                pair(i, i)
    return [(r, c if r else [False] * len(c)) for r, c in gm], [(r, c if r else [False] * len(c)) for r, c in pm]


def check_highlight(path, recs):
    parsed = Results()
    with open(path, encoding='utf-8') as f:
        parsed.feed(f.read())
    bad, n, lit = [], 0, 0
    d = 0
    for r in recs:
        systems = {s['name']: s for s in r['systems']}
        for s in r['systems']:
            if not disagreeing(r, s):
                continue
            d += 1
            w = s if s.get('verdict') == 'different' else systems.get(s.get('refuted_by'), {})
            gr, pr = w.get('gold_result'), w.get('pred_result')
            if not gr or not pr:
                continue
            tables = parsed.by_section.get('d-%d' % d, [])
            gm, pm = expected_marks(gr['rows'], pr['rows'], len(gr['columns']), len(pr['columns']))
            # an empty result shows one '(no rows)' row, never highlighted
            got = [t[1:] for t in tables]  # the first row is the header
            want = [gm or [(False, [False])], pm or [(False, [False])]]
            n += 1
            lit += sum(r for r, _ in gm + pm)
            if got != want:
                bad.append('d-%d: got %s, want %s' % (d, got, want))
    return n > 0 and lit > 0 and not bad, 'results=%d highlighted rows=%d %s' % (
        n, lit, '; '.join(bad[:3]) or 'as bag matching says')


def joingraphs(path, _):
    lines = []
    for _, e in svgs(path):
        if isinstance(e, ET.ParseError) or 'joingraph' not in (e.get('class') or ''):
            continue
        edges = ['%s %s' % (g.get('class'), ' / '.join(t.text or '' for t in g.iter(SVG + 'text')))
                 for g in e.iter(SVG + 'g') if 'edge' in (g.get('class') or '').split()]
        lines.append('%s: %s' % (e.get('id'), ' | '.join(edges)))
    return True, '\n'.join(lines)


def check_filtered(page, query):
    q = dict(p.split('=', 1) for p in query.split('&') if '=' in p)
    bad, hidden, shown = [], 0, 0
    for a in page.items:
        match = all(a.get('data-' + k) == v for k, v in q.items())
        is_hidden = 'hidden' in a
        hidden += is_hidden
        shown += not is_hidden
        if match == is_hidden:
            bad.append('%s %s' % (a.get('id'), 'hidden' if is_hidden else 'shown'))
    for row in page.mrows:
        a = row['attrs']
        match = ('difficulty' not in q or a.get('data-difficulty') == q['difficulty']) and any(
            all(c.get('data-' + k) == v for k, v in q.items() if k != 'difficulty')
            for c in row['cells'] if c.get('data-verdict'))
        if match == ('hidden' in a):
            bad.append('row %s %s' % (a.get('id'), 'hidden' if 'hidden' in a else 'shown'))
        hidden += 'hidden' in a
        shown += 'hidden' not in a
    missing = [k for k in ('system', 'difficulty', 'verdict') if 'filter-' + k not in page.ids]
    if missing:
        bad.append('no control for %s' % missing)
    if not hidden or not shown:
        bad.append('the query should hide some items (or rows) and show others')
    return not bad, 'query %s: %d shown, %d hidden; %s' % (query, shown, hidden, '; '.join(bad) or 'as it asks')


SVG = '{http://www.w3.org/2000/svg}'
WIDTH = 500  # a bar at 100 %, as cli/eval_report_svg.c draws it


def svgs(path):
    """Each inline SVG of the page: (its text, the parsed element or the
    parse error)."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    out = []
    for m in re.finditer(r'<svg[\s>].*?</svg>', text, re.S):
        try:
            out.append((m.group(0), ET.fromstring(m.group(0))))
        except ET.ParseError as e:
            out.append((m.group(0), e))
    return out


def check_svg(path, _):
    found = svgs(path)
    bad = ['svg %d: %s' % (i, e) for i, (_, e) in enumerate(found) if isinstance(e, ET.ParseError)]
    ids = [e.get('id') for _, e in found if not isinstance(e, ET.ParseError)]
    for want in ('chart-systems', 'chart-difficulty', 'chart-gap'):
        if want not in ids:
            bad.append('no %s' % want)
    return bool(found) and not bad, 'svg=%d %s' % (len(found), '; '.join(bad) or 'all well-formed')


def tally(recs):
    """Per (system, group) the counts the charts draw; group None is the
    whole run."""
    t = collections.defaultdict(collections.Counter)
    for r in recs:
        for s in r['systems']:
            for g in (None, r.get('difficulty')):
                c = t[(s['name'], g)]
                c['items'] += 1
                c['ex'] += s.get('ex') == 'correct'
                if s.get('ex') not in ('correct', 'no-db'):
                    continue
                v = s.get('verdict') or ''
                if v.startswith('equivalent'):
                    c['ver'] += 1
                elif v in ('different', 'column-count'):
                    c['different'] += 1
                elif v == 'different-under-ties':
                    c['ties'] += 1
                else:
                    c['unknown'] += 1
    return t


def check_charts(path, recs):
    t = tally(recs)
    charts = {e.get('id'): e for _, e in svgs(path) if not isinstance(e, ET.ParseError)}
    bad, bars = [], 0
    for cid in ('chart-systems', 'chart-difficulty'):
        for rect in charts.get(cid, ET.Element('none')).iter(SVG + 'rect'):
            cls = rect.get('class')
            if cls not in ('ex', 'ver'):
                continue
            bars += 1
            c = t[(rect.get('data-system'), rect.get('data-group') or None)]
            want = c[cls] / c['items'] if c['items'] else 0
            if abs(float(rect.get('width')) - WIDTH * want) > 0.06:
                bad.append('%s %s/%s %s is %s wide, want %.1f' % (cid, rect.get('data-system'), rect.get('data-group'),
                                                                 cls, rect.get('width'), WIDTH * want))
    names = [s['name'] for s in recs[0]['systems']] if recs else []
    diffs = {r.get('difficulty') for r in recs if r.get('difficulty')}
    if bars != 2 * len(names) * (1 + len(diffs)):
        bad.append('%d EX bars, want %d' % (bars, 2 * len(names) * (1 + len(diffs))))
    most = max([sum(t[(n, None)][k] for k in ('different', 'ties', 'unknown')) for n in names] or [0])
    segments = 0
    for rect in charts.get('chart-gap', ET.Element('none')).iter(SVG + 'rect'):
        cls = rect.get('class')
        if cls not in ('different', 'ties', 'unknown'):
            continue
        segments += 1
        n = t[(rect.get('data-system'), None)][cls]
        want = WIDTH * n / most if most else 0
        if int(rect.get('data-count')) != n or abs(float(rect.get('width')) - want) > 0.06:
            bad.append('gap %s %s: %s (%s wide), want %d (%.1f)' % (rect.get('data-system'), cls,
                                                                  rect.get('data-count'), rect.get('width'), n, want))
    if segments != 3 * len(names):
        bad.append('%d gap segments, want %d' % (segments, 3 * len(names)))
    return not bad and bars > 0, 'bars=%d segments=%d %s' % (bars, segments, '; '.join(bad) or 'as the records say')


def png_pixels(path):
    """The rows of an 8-bit RGB or RGBA PNG (as Chromium writes its
    screenshots), each a bytes object of width * channels."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, head = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            head = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError('PNG kind %d/%d not read here' % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def check_inked(path, _):
    width, height, bpp, rows = png_pixels(path)
    colours = collections.Counter(row[x:x + bpp] for row in rows for x in range(0, width * bpp, bpp))
    inked = width * height - colours.most_common(1)[0][1]  # all but the background
    share = inked / (width * height)
    return share > 0.01, '%dx%d, %.2f %% inked' % (width, height, 100 * share)


def svg_files(path, directory):
    names = []
    for text, e in svgs(path):
        if isinstance(e, ET.ParseError):
            continue
        name = '%s.svg' % e.get('id', 'svg-%d' % len(names))
        with open(os.path.join(directory, name), 'w', encoding='utf-8') as f:
            f.write(text)
        names.append(name)
    return bool(names), ' '.join(names)


CHECKS = {'inked': check_inked, 'svg-files': svg_files, 'svg': check_svg, 'charts': check_charts, 'anchors': check_anchors, 'summary-links': check_summary_links, 'filter-attrs': check_filter_attrs,
          'filtered': check_filtered, 'matrix': check_matrix, 'highlight': check_highlight,
          'joingraphs': joingraphs}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in CHECKS:
        sys.exit(__doc__)
    if sys.argv[1] in ('svg', 'charts', 'inked', 'svg-files', 'highlight', 'joingraphs'):
        page = sys.argv[2]  # read as XML or a PNG, not as HTML
    else:
        page = load(sys.argv[2])
    if sys.argv[1] in ('filtered', 'svg-files'):
        recs = sys.argv[3]
    else:
        recs = records(sys.argv[3]) if len(sys.argv) > 3 else []
    good, msg = CHECKS[sys.argv[1]](page, recs)
    print(msg)
    sys.exit(0 if good else 1)


if __name__ == '__main__':
    main()
