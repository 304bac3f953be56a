"""render/documents/columns: the column balancing lays out the same pages as WeasyPrint's own,
with fewer trial layouts."""
from __future__ import annotations

import functools
import math
import sys

import pytest
import weasyprint
import weasyprint.layout.block
import weasyprint.layout.column

from cardgen.render.documents import columns

# card-like blocks, each kept whole, in two columns; one much taller than the rest (WeasyPrint
# steps 1 px at a time until a column holds it), then a set of even ones, then one alone
BLOCK = '<article style="break-inside: avoid; margin: 0 0 3.6mm; border-left: 3pt solid #888">{}</article>'
WORDS = "The player who draws this card shows it and takes another turn at once. "


def html(columns_css: str = "columns: 2; column-gap: 7mm") -> str:
    sets = [[WORDS * n for n in (1, 14, 2, 3)], [WORDS * 2] * 6, [WORDS * 9]]
    body = "".join(f'<h2>Set {i}</h2><div style="{columns_css}">' + "".join(BLOCK.format(text) for text in texts)
                   + "</div><p>After the set.</p>" for i, texts in enumerate(sets))
    return f"<html><body style='font: 10pt sans-serif'>{body}</body></html>"


@functools.cache
def laid_out(document: str, layout) -> tuple[bytes, int, list[list[tuple[float, list]]]]:
    """The PDF laid out with the given columns_layout, how many blocks were laid out, and each
    multi-column box's tries in its balancing loop, in order: the height tried (as the room left
    below the columns) and where each column ended."""
    count = [0]
    boxes: list[list] = []  # each box's frame, then its tries
    block_box_layout = weasyprint.layout.block.block_box_layout

    def recorded(*args, **kwargs):
        count[0] += 1
        caller = sys._getframe(1)  # one call of columns_layout: one box (kept, so never another's)
        room, adjoining = args[2], args[8]
        a_try = caller.f_code.co_name == "columns_layout" and adjoining == [] and room != math.inf
        result = block_box_layout(*args, **kwargs)
        if a_try:
            if not boxes or caller is not boxes[-1][0]:
                boxes.append([caller])
            if len(boxes[-1]) == 1 or boxes[-1][-1][0] != room:
                boxes[-1].append((room, []))
            boxes[-1][-1][1].append(result[1])
        return result

    saved = weasyprint.layout.block.columns_layout
    weasyprint.layout.block.columns_layout = layout
    weasyprint.layout.block.block_box_layout = recorded
    try:
        pdf = weasyprint.HTML(string=document).write_pdf()
    finally:
        weasyprint.layout.block.columns_layout = saved
        weasyprint.layout.block.block_box_layout = block_box_layout
    return pdf, count[0], [box[1:] for box in boxes]


def rendered(document: str, layout) -> tuple[bytes, int]:
    """The PDF laid out with the given columns_layout, and how many blocks were laid out."""
    pdf, count, _ = laid_out(document, layout)
    return pdf, count


def tries(document: str, layout) -> list[list[tuple[float, list]]]:
    return laid_out(document, layout)[2]


@pytest.mark.slow
def test_same_pages_as_weasyprint_with_fewer_layouts():
    own, own_layouts = rendered(html(), weasyprint.layout.column.columns_layout)
    ours, our_layouts = rendered(html(), columns.columns_layout)
    assert ours == own
    assert our_layouts < own_layouts / 3


# card entries of a heading and paragraphs (of so many WORDS each), where WeasyPrint, once it has
# measured a next box 2.9 px short, steps 2.9 px at a time over two dozen tries that end the same
ENTRY = ('<article style="break-inside: avoid; margin: 0 0 3.6mm; border-left: 3pt solid #888; '
         'padding: 0.4mm 0 0.4mm 3.2mm"><h3 style="margin: 0; font-size: 11pt">Card {}</h3>{}</article>')
PARAGRAPHS = [[1, 3], [2, 1, 4], [1, 1], [3], [4, 4], [2], [3, 3], [1, 4]]


def entries_html() -> str:
    entries = "".join(ENTRY.format(i, "".join(f"<p style='margin: 0 0 1mm; font-size: 9pt'>{WORDS * n}</p>" for n in texts))
                      for i, texts in enumerate(PARAGRAPHS))
    return (f"<html><body style='font: 10pt sans-serif'><h2>Cards</h2>"
            f"<div style='columns: 2; column-gap: 7mm'>{entries}</div><p>After.</p></body></html>")


@pytest.mark.slow
@pytest.mark.parametrize("document", [html(), entries_html()], ids=["1px-steps", "lost-space-steps"])
def test_each_jump_skips_only_tries_that_end_the_same(document):
    """The tries are WeasyPrint's own, in order, less some; each one left out ends the columns
    where the try before it does (so WeasyPrint would have measured the same, and stepped the same)."""
    own = tries(document, weasyprint.layout.column.columns_layout)
    ours = tries(document, columns.columns_layout)
    assert len(own) == len(ours)
    skipped = []
    for own_tries, our_tries in zip(own, ours):
        kept = iter(range(len(own_tries)))
        at = [next(index for index in kept if own_tries[index][0] == room) for room, _ in our_tries]
        assert [own_tries[index] for index in at] == our_tries
        for before, after in zip(at, at[1:]):
            assert all(ends == own_tries[before][1] for _, ends in own_tries[before + 1:after])
            skipped.append(after - before - 1)
        assert at[-1] == len(own_tries) - 1  # the last try is WeasyPrint's last
    assert max(skipped) >= 20


@pytest.mark.slow
def test_lost_space_steps_same_pages_with_fewer_layouts():
    own, own_layouts = rendered(entries_html(), weasyprint.layout.column.columns_layout)
    ours, our_layouts = rendered(entries_html(), columns.columns_layout)
    assert ours == own
    assert our_layouts < own_layouts / 3


def test_one_column_too():
    own, own_layouts = rendered(html("columns: 1"), weasyprint.layout.column.columns_layout)
    ours, our_layouts = rendered(html("columns: 1"), columns.columns_layout)
    assert ours == own
    assert our_layouts < own_layouts


def test_installed_for_the_version_it_was_copied_from_only(monkeypatch):
    saved = weasyprint.layout.block.columns_layout
    try:
        monkeypatch.setattr(weasyprint, "__version__", "0.1")
        columns.install()
        assert weasyprint.layout.block.columns_layout is saved
        monkeypatch.setattr(weasyprint, "__version__", columns.WEASYPRINT_VERSION)
        columns.install()
        assert weasyprint.layout.block.columns_layout is columns.columns_layout
    finally:
        weasyprint.layout.block.columns_layout = saved


def test_steps_as_weasyprint_takes_them():
    """Worked by hand from WeasyPrint's loop: each step adds the lost space (1 px while there is
    none); each try then measures, for each column, the room its next box lacks (its height less
    the room below the column's content), and keeps the least that is over 1 px."""
    # one column reaching 100 px down, its next box 30 px high, tried at 80 px: it lacks 50 px
    stepped, spaces = columns._steps(80.0, 50.0, 200.0, [(100.0, 30.0)])
    assert stepped == [80.0, 130.0, 180.0, 230.0]
    assert spaces == [50.0, 50.0, 50.0, 50.0]  # at 130 it lacks 0, at 180 less: nothing over 1 px
    # three columns: at 100 the second's next box lacks 7 px, the third's 9 px: a step of 7; then
    # the third's lacks 2 px: steps of 2 from there
    stepped, spaces = columns._steps(80.0, 20.0, 120.0, [(100.0, 30.0), (60.0, 47.0), (60.0, 49.0)])
    assert stepped == [80.0, 100.0, 107.0, 109.0, 111.0, 113.0, 115.0, 117.0, 119.0, 121.0]
    assert spaces == [20.0, 7.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
    # no lost space: 1 px steps, up to the first past the greatest height
    stepped, spaces = columns._steps(10.0, math.inf, 12.5, [(9.0, 0.0)])
    assert stepped == [10.0, 11.0, 12.0, 13.0] and spaces == [math.inf] * 4
