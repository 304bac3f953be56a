"""render/documents/columns: WeasyPrint 70.0's multi-column layout, with the column balancing
reaching the same heights in far fewer trial layouts.

WeasyPrint balances columns by laying them out at a height, and, while the content does not fit,
again at a greater one: by the least room a column's next box lacked in any try so far (the "lost
space", never reset: once one try measured 1.1 px, every later step is 1.1 px), else by 1 px. So
the rulebook's two columns of card entries (each kept whole) are laid out hundreds of times, a
pixel or so taller each time: about two thirds of the rulebook's CPU time. Between two of those
steps nothing changes but the height until a column takes in more (or less) content: every column
then ends at the same place, and neither what the try measures (how far each column's content
reaches, the height of its next box) nor whether the content fits changes (the room left in a
column only grows). So the heights of WeasyPrint's next steps are worked out from the last try,
by the same float operations, the height at which a column first ends elsewhere is found among
them by a galloping search (a column's content only grows with its height), and the layout
resumes there with the lost space WeasyPrint would have measured by then: the heights laid out
for good, and so the pages, are WeasyPrint's own. And a single column (the booklet's card
entries) that holds all its content is not balanced at all: WeasyPrint would try greater heights
until it holds it all again.

Below, WeasyPrint's `columns_layout` (weasyprint/layout/column.py, version 70.0), changed only in
how it steps (marked "cardgen"); `install` puts it in WeasyPrint's place for that
version only. WeasyPrint is BSD-licensed:

    Copyright (c) 2011-2021, Simon Sapin and contributors. All rights reserved.
    Redistribution and use in source and binary forms, with or without modification, are
    permitted provided that the following conditions are met: redistributions of source code
    must retain the above copyright notice, this list of conditions and the following
    disclaimer; redistributions in binary form must reproduce the above copyright notice, this
    list of conditions and the following disclaimer in the documentation and/or other
    materials provided with the distribution; neither the name of the copyright holder nor the
    names of its contributors may be used to endorse or promote products derived from this
    software without specific prior written permission. THIS SOFTWARE IS PROVIDED BY THE
    COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES,
    INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
    PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS
    BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
    (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
    DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY,
    WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
    ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""
from __future__ import annotations

from math import floor, inf
from typing import Any

WEASYPRINT_VERSION = "70.0"  # the version whose columns_layout this is


def install() -> None:
    """Lay out multi-column boxes with the function below, when WeasyPrint is the version it
    was copied from (else WeasyPrint's own stays)."""
    import weasyprint
    import weasyprint.layout.block

    if weasyprint.__version__ == WEASYPRINT_VERSION:
        weasyprint.layout.block.columns_layout = columns_layout


def columns_layout(context: Any, box: Any, bottom_space: Any, skip_stack: Any, containing_block: Any,
                   page_is_empty: Any, absolute_boxes: Any, fixed_boxes: Any, adjoining_margins: Any,
                   first_letter_style: Any, first_line_style: Any) -> Any:
    """Lay out a multi-column ``box``."""
    from weasyprint.layout.absolute import absolute_layout
    from weasyprint.layout.block import (
        block_box_layout,
        block_level_layout,
        block_level_width,
        collapse_margin,
        remove_placeholders,
    )
    from weasyprint.layout.column import _create_column_box, _report_footnotes
    from weasyprint.layout.percent import percentage, resolve_percentages

    style = box.style
    width = style['column_width']
    count = style['column_count']
    height = style['height']
    original_bottom_space = bottom_space
    context.in_column = True

    if style['position'] == 'relative':
        # New containing block, use a new absolute list
        absolute_boxes = []

    box = box.copy_with_children(box.children)
    box.position_y += collapse_margin(adjoining_margins)

    # Set height if defined
    if height != 'auto' and height.unit != '%':
        assert height.unit.lower() == 'px'
        height_defined = True
        empty_space = context.page_bottom - box.content_box_y() - height.value
        bottom_space = max(bottom_space, empty_space)
    else:
        height_defined = False

    # TODO: the columns container width can be unknown if the containing block
    # needs the size of this block to know its own size
    block_level_width(box, containing_block)

    if style['column_gap'] == 'normal':
        # 1em because in column context
        gap = style['font_size']
    else:
        gap = percentage(style['column_gap'], box.style, box.width)

    # Define the number of columns and their widths
    if width == 'auto' and count != 'auto':
        width = max(0, box.width - (count - 1) * gap) / count
    elif width != 'auto' and count == 'auto':
        count = max(1, floor((box.width + gap) / (width + gap)))
        width = (box.width + gap) / count - gap
    else:  # overconstrained, with width != 'auto' and count != 'auto'
        count = max(1, min(count, floor((box.width + gap) / (width + gap))))
        width = (box.width + gap) / count - gap

    # Handle column-span property with the following structure:
    # columns_and_blocks = [
    #     [column_child_1, column_child_2],
    #     spanning_block,
    #     …
    # ]
    columns_and_blocks = []
    column_children: list[Any] = []
    skip, = skip_stack.keys() if skip_stack else (0,)
    for i, child in enumerate(box.children[skip:], start=skip):
        if child.style['column_span'] == 'all':
            if column_children:
                columns_and_blocks.append(
                    (i - len(column_children), column_children))
            columns_and_blocks.append((i, child.copy()))
            column_children = []
            continue
        column_children.append(child.copy())
    if column_children:
        columns_and_blocks.append(
            (i + 1 - len(column_children), column_children))

    if skip_stack:
        skip_stack = {0: skip_stack[skip]}

    if not box.children:
        next_page = {'break': 'any', 'page': None}
        skip_stack = None

    # Find height and balance.
    #
    # The current algorithm starts from the total available height, to check
    # whether the whole content can fit. If it doesn’t fit, we keep the partial
    # rendering. If it fits, we try to balance the columns starting from the
    # ideal height (the total height divided by the number of columns). We then
    # iterate until the last column is not the highest one. At the end of each
    # loop, we add the minimal height needed to make one direct child at the
    # top of one column go to the end of the previous column.
    #
    # We rely on a real rendering for each loop, and with a stupid algorithm
    # like this it can last minutes…

    adjoining_margins = []
    current_position_y = box.content_box_y()
    new_children = []
    column_skip_stack = None
    last_loop = False
    break_page = False
    footnote_area_heights = [
        0 if context.current_footnote_area.height == 'auto'
        else context.current_footnote_area.margin_height()]
    last_footnotes_height = 0
    for index, column_children_or_block in columns_and_blocks:
        if not isinstance(column_children_or_block, list):
            # We have a spanning block, we display it like other blocks
            block = column_children_or_block
            resolve_percentages(block, containing_block)
            block.position_x = box.content_box_x()
            block.position_y = current_position_y
            new_child, resume_at, next_page, adjoining_margins, _, _ = (
                block_level_layout(
                    context, block, original_bottom_space, skip_stack, containing_block,
                    page_is_empty, absolute_boxes, fixed_boxes, adjoining_margins,
                    first_letter_style, first_line_style))
            skip_stack = None
            if new_child is None:
                last_loop = True
                break_page = True
                break
            new_children.append(new_child)
            current_position_y = (
                new_child.border_height() + new_child.border_box_y())
            adjoining_margins.append(new_child.margin_bottom)
            if resume_at:
                last_loop = True
                break_page = True
                column_skip_stack = resume_at
                break
            page_is_empty = False
            continue

        # We have a list of children that we have to balance between columns
        column_children = column_children_or_block

        # Find the total height available for the first run
        current_position_y += collapse_margin(adjoining_margins)
        adjoining_margins = []
        column_box = _create_column_box(
            box, containing_block, column_children, width, current_position_y)
        height = max_height = (
            context.page_bottom - current_position_y - original_bottom_space)

        # Try to render columns until the content fits, increase the column
        # height step by step
        column_skip_stack = skip_stack
        lost_space = inf
        original_excluded_shapes = context.excluded_shapes[:]
        original_page_is_empty = page_is_empty
        page_is_empty = stop_rendering = balancing = False
        while True:
            # Remove extra excluded shapes introduced during the previous loop
            while len(context.excluded_shapes) > len(original_excluded_shapes):
                context.excluded_shapes.pop()

            # Render the columns
            column_skip_stack = skip_stack
            consumed_heights = []
            new_boxes = []
            ends: list[Any] = []  # cardgen: where each column ends
            reached: list[float] = []  # cardgen: and how far down its content reaches
            measured: list[tuple[float, float]] = []  # cardgen: and what the next step is made from
            for _i in range(count):
                # Render one column
                new_box, resume_at, next_page, _, _, _ = block_box_layout(
                    context, column_box,
                    context.page_bottom - current_position_y - height,
                    column_skip_stack, containing_block,
                    page_is_empty or not balancing, [], [], [], first_letter_style,
                    first_line_style, discard=False, max_lines=None)
                if new_box is None:
                    # We didn't render anything, retry
                    column_skip_stack = {0: None}
                    ends.append(_NOTHING)  # cardgen
                    reached.append(0)  # cardgen
                    break
                new_boxes.append(new_box)
                column_skip_stack = resume_at
                ends.append(resume_at)  # cardgen

                # Calculate consumed height, empty space and next box height
                in_flow_children = [
                    child for child in new_box.children
                    if child.is_in_normal_flow()]
                if in_flow_children:
                    # Get the empty space at the bottom of the column box
                    consumed_height = (
                        in_flow_children[-1].margin_height() +
                        in_flow_children[-1].position_y - current_position_y)
                    reached.append(consumed_height)  # cardgen
                    empty_space = height - consumed_height
                    consumed_height -= in_flow_children[-1].margin_bottom

                    # Get the minimum size needed to render the next box
                    next_box_height = 0
                    if column_skip_stack:
                        next_box = block_box_layout(
                            context, column_box, inf, column_skip_stack,
                            containing_block, True, [], [], [], first_letter_style,
                            first_line_style, discard=False, max_lines=None)[0]
                        for child in next_box.children:
                            if child.is_in_normal_flow():
                                next_box_height = child.margin_height()
                                break
                        remove_placeholders(context, [next_box], [], [])
                    measured.append((reached[-1], next_box_height))  # cardgen
                else:
                    consumed_height = empty_space = next_box_height = 0
                    reached.append(0)  # cardgen

                consumed_heights.append(consumed_height)

                # Append the size needed to render the next box in this
                # column.
                #
                # The next box size may be smaller than the empty space, for
                # example when the next box can't be separated from its own
                # next box. In this case we don't try to find the real value
                # and let the workaround below fix this for us.
                #
                # We also want to avoid very small values that may have been
                # introduced by rounding errors. As the workaround below at
                # least adds 1 pixel for each loop, we can ignore lost spaces
                # lower than 1px.
                if next_box_height - empty_space > 1:
                    lost_space = min(lost_space, next_box_height - empty_space)

                # Stop if we already rendered the whole content
                if resume_at is None:
                    break

            # Remove placeholders but keep the current footnote area height
            last_footnotes_height = (
                0 if context.current_footnote_area.height == 'auto'
                else context.current_footnote_area.margin_height())
            remove_placeholders(context, new_boxes, [], [])

            if last_loop:
                break

            if balancing:
                if column_skip_stack is None:
                    # We rendered the whole content, stop
                    break

                # Increase the column heights and render them again
                if not context.current_page_footnotes:  # cardgen: the steps that change nothing, skipped
                    height, lost_space = _next_change(
                        context, column_box, count, height, lost_space, max_height, current_position_y,
                        skip_stack, containing_block, first_letter_style, first_line_style, ends, reached,
                        measured, len(original_excluded_shapes))
                else:
                    add_height = 1 if lost_space == inf else lost_space
                    height += add_height

                if height > max_height:
                    # We reached max height, stop rendering
                    height = max_height
                    stop_rendering = True
                    break
            else:
                if last_footnotes_height not in footnote_area_heights:
                    # Footnotes have been rendered, try to re-render with the
                    # new footnote area height
                    height -= last_footnotes_height - footnote_area_heights[-1]
                    footnote_area_heights.append(last_footnotes_height)
                    continue

                everything_fits = (
                    not column_skip_stack and
                    max(consumed_heights) <= max_height)
                if everything_fits:
                    # Everything fits, start expanding columns at the average
                    # of the column heights
                    if count == 1:  # cardgen: nothing to balance, the one column holds it all
                        break
                    if (style['column_fill'] == 'balance' or
                            index < columns_and_blocks[-1][0]):
                        balancing = True
                        height = sum(consumed_heights) / count
                    else:
                        break
                else:
                    # Content overflows even at maximum height, stop now and
                    # let the columns continue on the next page
                    stop_rendering = True
                    break

        # TODO: check style['max']-height
        bottom_space = max(
            bottom_space, context.page_bottom - current_position_y - height)

        # Replace the current box children with real columns
        i = 0
        max_column_height = 0
        columns: list[Any] = []
        while True:
            column_box = _create_column_box(
                box, containing_block, column_children, width,
                current_position_y)
            if style['direction'] == 'rtl':
                column_box.position_x += box.width - (i + 1) * width - i * gap
            else:
                column_box.position_x += i * (width + gap)
            new_child, column_skip_stack, column_next_page, _, _, _ = (
                block_box_layout(
                    context, column_box, bottom_space, skip_stack, containing_block,
                    original_page_is_empty, absolute_boxes, fixed_boxes, None,
                    first_letter_style, first_line_style, discard=False,
                    max_lines=None))
            if new_child is None:
                columns = []
                break_page = True
                break
            next_page = column_next_page
            skip_stack = column_skip_stack
            columns.append(new_child)
            max_column_height = max(
                max_column_height, new_child.margin_height())
            if skip_stack is None:
                bottom_space = original_bottom_space
                break
            i += 1
            if i == count and not height_defined:
                # [If] a declaration that constrains the column height
                # (e.g., using height or max-height). In this case,
                # additional column boxes are created in the inline
                # direction.
                break

        # Update the current y position and set the columns’ height
        current_position_y += min(max_height, max_column_height)
        for column in columns:
            column.height = max_column_height
            new_children.append(column)

        skip_stack = None
        page_is_empty = False

        if stop_rendering:
            break

    # Report footnotes above the defined footnotes height
    _report_footnotes(context, footnote_area_heights[-1])

    if box.children and not new_children:
        # The box has children but none can be drawn, let's skip the whole box
        context.in_column = False
        return None, (0, None), {'break': 'any', 'page': None}, [], False

    # Set the height of the containing box
    box.children = new_children
    current_position_y += collapse_margin(adjoining_margins)
    height = current_position_y - box.content_box_y()
    if box.height == 'auto':
        box.height = height
        height_difference = 0
    else:
        height_difference = box.height - height

    # Update the latest columns’ height to respect min-height
    if box.min_height != 'auto' and box.min_height > box.height:
        height_difference += box.min_height - box.height
        box.height = box.min_height
    for child in new_children[::-1]:
        if child.is_column:
            child.height += height_difference
        else:
            break

    if style['position'] == 'relative':
        # New containing block, resolve the layout of the absolute descendants
        for absolute_box in absolute_boxes:
            absolute_layout(
                context, absolute_box, box, fixed_boxes, bottom_space,
                skip_stack=None)

    # Calculate skip stack
    if column_skip_stack:
        skip, = column_skip_stack.keys()
        skip_stack = {index + skip: column_skip_stack[skip]}
    elif break_page:
        skip_stack = {index: None}

    # Update page bottom according to the new footnotes
    if context.current_footnote_area.height != 'auto':
        context.page_bottom += footnote_area_heights[0]
        context.page_bottom -= context.current_footnote_area.margin_height()

    context.in_column = False
    return box, skip_stack, next_page, [], False


# --------------------------------------------------------------------------- cardgen's


_NOTHING = "nothing"  # a column that took nothing in (WeasyPrint then tries a greater height)


def _next_change(context: Any, column_box: Any, count: int, height: float, lost_space: float,
                 max_height: float, position_y: float, skip_stack: Any, containing_block: Any,
                 first_letter_style: Any, first_line_style: Any, ends: list[Any], reached: list[float],
                 measured: list[tuple[float, float]], shapes: int) -> tuple[float, float]:
    """The height WeasyPrint's steps from `height` reach first where the columns end elsewhere
    than `ends` (where they end at `height`), or the first step past `max_height`; and the
    lost space WeasyPrint has measured by then (the least room a column's next box lacked).

    WeasyPrint steps by that lost space, or by 1 px while it has measured none. While the columns
    end where they do, each try measures the same boxes, so the steps are worked out here from
    the try at `height` (`measured`: for each column, how far down its content reaches and the
    height of its next box), by the same float operations as WeasyPrint's. The search starts at
    the step where the next box of a column would fit (`reached`: how far down each column's
    content reaches), and checks it: the step before it ends the same, it does not."""
    stepped, spaces = _steps(height, lost_space, max_height, measured)
    last = len(stepped) - 1  # no height beyond it is laid out

    def same(steps: int) -> bool:
        return _ends_at(context, column_box, count, stepped[steps], position_y, skip_stack,
                        containing_block, first_letter_style, first_line_style, shapes) == ends

    needed = _needed(context, column_box, position_y, skip_stack, containing_block, first_letter_style,
                     first_line_style, ends, reached, shapes)
    guess = 1
    while guess < last and stepped[guess] < needed:
        guess += 1
    low, high = 0, last  # the same at low; the first change at high or before it
    if guess > 1 and not same(guess - 1):
        high = guess - 1
    else:
        low = guess - 1
        step = 1
        while low + step < last and same(low + step):  # galloping from the guess
            low, step = low + step, 2 * step
        high = min(low + step, last)
    while high - low > 1:  # a column's content only grows with its height: the first change is unique
        middle = (low + high) // 2
        if same(middle):
            low = middle
        else:
            high = middle
    return stepped[high], spaces[high - 1]


def _steps(height: float, lost_space: float, max_height: float,
           measured: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    """WeasyPrint's steps from the try at `height` (after which its lost space is `lost_space`) up
    to the first past `max_height`, while every try measures what that one did (`measured`: for
    each column, how far down its content reaches and the height of its next box): the heights,
    and the lost space after the try at each."""
    stepped, spaces = [height], [lost_space]
    while stepped[-1] <= max_height:
        space = spaces[-1]
        step = stepped[-1] + (1 if space == inf else space)
        for consumed, next_box in measured:  # what the try at `step` measures, as WeasyPrint does
            empty_space = step - consumed
            if next_box - empty_space > 1:
                space = min(space, next_box - empty_space)
        stepped.append(step)
        spaces.append(space)
    return stepped, spaces


def _needed(context: Any, column_box: Any, position_y: float, skip_stack: Any, containing_block: Any,
            first_letter_style: Any, first_line_style: Any, ends: list[Any], reached: list[float],
            shapes: int) -> float:
    """The least column height at which a column takes in its next box whole: how far down the
    column's content reaches, and the box's height laid out alone (only a guess: a box that
    can break across columns fits in part before)."""
    from weasyprint.layout.block import block_box_layout, remove_placeholders

    needed = inf
    for column, end in enumerate(ends):
        if end is None:
            continue
        starts_at = skip_stack if column == 0 else ends[column - 1]
        next_from = starts_at if end is _NOTHING else end
        del context.excluded_shapes[shapes:]
        alone = block_box_layout(context, column_box, -inf, next_from, containing_block, True, [], [], [],
                                 first_letter_style, first_line_style, discard=False, max_lines=None)[0]
        if alone is None:
            continue
        first = next((child for child in alone.children if child.is_in_normal_flow()), None)
        if first is not None:
            needed = min(needed, reached[column] + first.position_y - position_y + first.margin_height())
        remove_placeholders(context, [alone], [], [])
    del context.excluded_shapes[shapes:]
    return needed


def _ends_at(context: Any, column_box: Any, count: int, height: float, position_y: float, skip_stack: Any,
             containing_block: Any, first_letter_style: Any, first_line_style: Any, shapes: int) -> list[Any]:
    """Where each column ends at `height`, laid out as the balancing loop lays it out (from the
    excluded shapes it starts each try with, the first `shapes`), and undone as it undoes it."""
    from weasyprint.layout.block import block_box_layout, remove_placeholders

    del context.excluded_shapes[shapes:]
    ends: list[Any] = []
    boxes = []
    column_skip_stack = skip_stack
    for _ in range(count):
        new_box, resume_at, _next_page, _, _, _ = block_box_layout(
            context, column_box, context.page_bottom - position_y - height, column_skip_stack,
            containing_block, False, [], [], [], first_letter_style, first_line_style,
            discard=False, max_lines=None)
        if new_box is None:
            ends.append(_NOTHING)
            break
        boxes.append(new_box)
        ends.append(resume_at)
        column_skip_stack = resume_at
        if resume_at is None:
            break
    remove_placeholders(context, boxes, [], [])
    del context.excluded_shapes[shapes:]
    return ends
