"""No HTML, CSS or ReportLab markup injection. Every text field is escaped for HTML and for
ReportLab's paragraph markup, so tags typed in a card come out as the characters typed; colors,
symbols, sizes and paths are checked by the schema instead of being passed through."""
from __future__ import annotations

import pytest
import yaml
from conftest import TINY_GAME

from cardgen import load
from security.conftest import attempt, pdf_text

NAME = '<font color="[[[1]]]">Evil</font>'
FLAVOR = '<img src="/etc/passwd" width="900"/> <b>not bold</b>'
TEXT = '<font size="200">Huge</font> <a href="x">link</a> </para> & <br/>'
ENTITIES = "&amp; &lt;b&gt; &#65;"  # ReportLab markup would turn these into '& <b> A'


@pytest.fixture(scope="module")
def tagged_game(tmp_path_factory):
    import shutil

    folder = tmp_path_factory.mktemp("tagged") / "game"
    shutil.copytree(TINY_GAME, folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("card_size: mini", "card_size: poker"))
    cards = yaml.safe_load((folder / "cards.yaml").read_text())
    for card in cards["cards"]:
        if card["name"] == "Peek":
            card.update(name=NAME, flavor=FLAVOR, text=TEXT, details=f"{TEXT} <script>alert(1)</script>")
        if card["name"] == "No":
            card.update(text=ENTITIES)
    (folder / "cards.yaml").write_text(yaml.safe_dump(cards, sort_keys=False))
    setups = (folder / "setups.yaml").read_text()
    setups = setups.replace("      Peek: 6", f"      '{NAME}': 6").replace(
        "blurb: The only setup.", "blurb: '<style>body { display: none }</style> Blurb'")
    (folder / "setups.yaml").write_text(setups)
    return folder


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("kind", ["cards", "rulebook"])
def test_tags_in_card_fields_appear_literally(kind, tagged_game, tmp_path):
    assert attempt(kind, tagged_game, tmp_path) is None
    (pdf,) = tmp_path.glob("*.pdf")
    text = "".join(pdf_text(pdf).split())  # a long name may wrap anywhere: compare without the breaks
    for typed in (NAME, FLAVOR, TEXT) + ((ENTITIES,) if kind == "cards" else ()):
        assert "".join(typed.split()) in text, typed


def test_html_in_the_setup_blurb_appears_literally(tagged_game, tmp_path):
    assert attempt("rulebook", tagged_game, tmp_path) is None
    text = flat(pdf_text(tmp_path / "rulebook.pdf"))
    assert "<style>body { display: none }</style> Blurb" in text


@pytest.mark.parametrize("field,value", [
    ("hex", '"#fff; } body { background: url(http://127.0.0.1/x) }"'),
    ("hex", "red"),
    ("text_hex", '"#12345g"'),
    ("symbol", '"../../etc/passwd"'),
    ("symbol", '"bomb.svg"'),
])
def test_colors_and_symbols_are_checked_by_the_schema(field, value, game_copy):
    folder = game_copy(TINY_GAME)
    game_yaml = folder / "game.yaml"
    source = game_yaml.read_text()
    old = 'hex: "#c0392b", symbol: bomb}'
    assert old in source
    new = {"hex": f"hex: {value}, symbol: bomb}}", "text_hex": f'hex: "#c0392b", text_hex: {value}, symbol: bomb}}',
           "symbol": f'hex: "#c0392b", symbol: {value}}}'}[field]
    game_yaml.write_text(source.replace(old, new))
    findings = [f for f in load.load_game(folder).findings if f.level == "error"]
    assert findings and all(f.where.line == 9 for f in findings)


@pytest.mark.parametrize("layout", ['frame: {panel: "red; x"}', 'text: {color: "url(http://x)"}',
                                    "fonts: {text: ../../fonts/Lato-Regular.ttf}",
                                    "fonts: {text: /usr/share/fonts/x.ttf}"])
def test_layout_colors_and_font_paths_are_checked(layout, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "layout.yaml").write_text(layout + "\n")
    message = attempt("cards", folder, tmp_path)
    assert message and "layout" in message or "font" in (message or "")
    assert not list(tmp_path.glob("*.pdf"))
