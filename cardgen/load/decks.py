"""load/decks: game.yaml's `decks:`, each with its card size, face, back and the cards it holds;
and each card sorted into its deck: its own `deck:`, else the first deck whose `select:` picks it.
When a game declares decks, a card in none of them is an error at its line."""
from __future__ import annotations

from dataclasses import replace

import yaml

from cardgen.load import schema
from cardgen.load.parts import Parts
from cardgen.load.reader import Values, did_you_mean
from cardgen.load.schema import Boolean, Identifier, Text
from cardgen.model.decks import Deck
from cardgen.model.game import ERROR, Card, Finding, matches
from cardgen.model.layout import Layout
from cardgen.model.sizes import CARD_SIZES_MM, DEFAULT_CARD_SIZE, CardSize, card_size_mm


class DeckParts(Parts):
    """game.yaml's decks: the game builder's part for them."""

    def _declared_decks(self, node: yaml.Node | None) -> tuple[Deck, ...]:
        """game.yaml's decks as far as they can be read before the cards (their selectors name cards)."""
        self.deck_nodes = {}
        decks = self._identified(node, schema.DECK, self._deck)
        self.deck_ids = tuple(d.id for d in decks)
        return decks

    def _deck(self, ident: str, m: Values) -> Deck:
        g = self.g
        self.deck_nodes[ident] = m
        return Deck(ident, m.read("name", Text, ""), self._deck_size(m.get("card_size")),
                    m.read("landscape", Boolean, False), m.read("face", Identifier), self._back_id(g, m.get("back")), print_all=self._prints_all(ident, m),
                    where=g.where(m.get("name") or m.get("id")))

    def _prints_all(self, ident: str, m: Values) -> bool:
        """`print: all`: the deck is built once, whatever the setups name (default `print: setups`)."""
        prints = m.read("print", Text, "setups")
        if prints not in schema.DECK_PRINTS:
            self.g.error(m["print"], "bad-value", f"deck '{ident}': print '{prints}' is not one of "
                         f"{', '.join(schema.DECK_PRINTS)}", did_you_mean(str(prints), schema.DECK_PRINTS)
                         or "all: one of each of its cards in a file of its own; setups: as the setups count them")
        return prints == "all"

    def _deck_size(self, node: yaml.Node | None) -> CardSize:
        g = self.g
        if isinstance(node, yaml.MappingNode):
            return self._size_in_mm(node)
        text = g.text(node, "card_size").strip().lower()
        try:
            card_size_mm(text)
        except ValueError as exc:
            g.error(node, "unknown-size", f"deck card_size: {exc}",
                    did_you_mean(text, CARD_SIZES_MM) or f"use one of {', '.join(CARD_SIZES_MM)} or WxH in mm, e.g. 44x63")
            return DEFAULT_CARD_SIZE
        return self._printable(node, text)

    def _into_decks(self, cards: tuple[Card, ...], decks: tuple[Deck, ...],
                    layout: Layout) -> tuple[tuple[Card, ...], tuple[Deck, ...]]:
        """The decks with their selectors, and each card in its deck, taking the deck's face and back
        where it has none of its own."""
        if not decks:
            return cards, decks
        decks = tuple(replace(d, select=self._selector(self.deck_nodes[d.id].get("select")),
                              face=self._deck_face(d, layout)) for d in decks)
        sorted_cards = []
        for card in cards:
            deck = next((d for d in decks if d.id == card.deck), None) or next(
                (d for d in decks if d.select and matches(card, d.select)), None)
            if deck is None:
                self.extra_findings.append(Finding(
                    ERROR, "card-in-no-deck", f"card '{card.name}' is in none of game.yaml's decks", card.where,
                    f"give it deck: ({', '.join(d.id for d in decks)}), or widen a deck's select:"))
                sorted_cards.append(card)
                continue
            sorted_cards.append(replace(card, deck=deck.id, face=card.face or deck.face, back=card.back or deck.back))
        return tuple(sorted_cards), decks

    def _deck_face(self, deck: Deck, layout: Layout) -> str | None:
        faces = list(layout.faces.by_id)
        if deck.face is None or deck.face in faces:
            return deck.face
        self.g.error(self.deck_nodes[deck.id].get("face"), "unknown-face", f"deck '{deck.id}': no face '{deck.face}'",
                     did_you_mean(deck.face, faces) or f"faces are: {', '.join(faces)}")
        return None
