"""render/documents/columns: the column balancing lays out the same pages as WeasyPrint's own,
with fewer trial layouts."""
from __future__ import annotations

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


def rendered(document: str, layout) -> tuple[bytes, int]:
    """The PDF laid out with the given columns_layout, and how many blocks were laid out."""
    laid_out = [0]
    block_box_layout = weasyprint.layout.block.block_box_layout

    def counted(*args, **kwargs):
        laid_out[0] += 1
        return block_box_layout(*args, **kwargs)

    saved = weasyprint.layout.block.columns_layout
    weasyprint.layout.block.columns_layout = layout
    weasyprint.layout.block.block_box_layout = counted
    try:
        return weasyprint.HTML(string=document).write_pdf(), laid_out[0]
    finally:
        weasyprint.layout.block.columns_layout = saved
        weasyprint.layout.block.block_box_layout = block_box_layout


def test_same_pages_as_weasyprint_with_fewer_layouts():
    own, own_layouts = rendered(html(), weasyprint.layout.column.columns_layout)
    ours, our_layouts = rendered(html(), columns.columns_layout)
    assert ours == own
    assert our_layouts < own_layouts / 3


def test_each_jump_lands_on_the_first_1px_step_where_the_columns_end_elsewhere(monkeypatch):
    """Checked step by step, as WeasyPrint would take them: the same ends before, others there."""
    jumps = []
    next_change = columns._next_change

    def checked(context, column_box, count, height, max_height, position_y, skip_stack, containing_block,
                first_letter_style, first_line_style, ends, reached, shapes):
        reached = next_change(context, column_box, count, height, max_height, position_y, skip_stack,
                              containing_block, first_letter_style, first_line_style, ends, reached, shapes)
        step = height
        while True:
            step += 1
            if step > max_height:
                assert reached == step
                break
            now = columns._ends_at(context, column_box, count, step, position_y, skip_stack, containing_block,
                                   first_letter_style, first_line_style, shapes)
            if now != ends:
                assert reached == step
                break
        jumps.append(reached - height)
        return reached

    monkeypatch.setattr(columns, "_next_change", checked)
    rendered(html(), columns.columns_layout)
    assert len(jumps) >= 3 and max(jumps) > 50


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
