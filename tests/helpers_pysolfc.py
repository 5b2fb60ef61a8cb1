"""PySolFC's own game objects, built without a window, for the tests that run its solver
client against `bakers-fc-solve`.

PySolFC (GPL) is not part of bakers: its source snapshot sits beside the repository in
``../shared/peers/pysolfc`` and is only imported here, never copied. A game is made the
way PySolFC makes it (its class, ``createGame``, its shuffle of deal ``n`` and its
``startGame``), with stand-ins for the window, the canvas and the card images.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

PYSOLFC = Path(__file__).resolve().parents[1].parent / "shared" / "peers" / "pysolfc"


def pysolfc_missing() -> str | None:
    """Return why PySolFC cannot be used here, or None when it can."""
    if not (PYSOLFC / "pysollib" / "hint.py").is_file():
        return f"PySolFC's source snapshot is not at {PYSOLFC}"
    for module in ("attrs", "configobj", "pysol_cards"):
        try:
            __import__(module)
        except ImportError:
            return f"PySolFC needs the {module} package, which is not installed"
    return None


def load_pysolfc() -> Any:
    """Import PySolFC with its Freecell Solver library binding shut off (so that it runs
    the ``fc-solve`` command) and return its ``pysollib.hint`` module."""
    for path in (str(PYSOLFC / "tests" / "lib"), str(PYSOLFC)):
        if path not in sys.path:
            sys.path.insert(0, path)
    sys.modules["freecell_solver"] = None  # type: ignore[assignment]  # import fails
    import pysollib.games  # noqa: F401  # registers the games
    import pysollib.hint as hint
    from pysol_tests import common_mocks  # noqa: F401  # stubs the canvas groups

    assert not hint.use_fc_solve_lib, "PySolFC must run the fc-solve command"
    return hint


class Anything:
    """A stand-in for a window object: every attribute is another stand-in, every call
    returns None, and it is false."""

    def __getattr__(self, name: str) -> Anything:
        return Anything()

    def __call__(self, *args: object, **kwargs: object) -> None:
        return None

    def __bool__(self) -> bool:
        return False


class _Images(Anything):
    CARDW = CARDH = 50
    CARD_XOFFSET = CARD_YOFFSET = 10
    SHADOW_XOFFSET = SHADOW_YOFFSET = 0
    CARD_DX = CARD_DY = 0

    def getOffsets(self) -> tuple[int, int]:  # noqa: N802  # PySolFC's name
        return (10, 10)


class _Options(Anything):
    animations = 0
    randomize_place = False
    shrink_face_down = False
    sound = False


class _App(Anything):
    def __init__(self) -> None:
        self.__dict__.update(images=_Images(), opt=_Options())

    def getFont(self, name: str) -> tuple[str, int]:  # noqa: N802  # PySolFC's name
        return ("helvetica", 12)


class _Canvas(Anything):
    xmargin = ymargin = 0
    preview = 0


class Dialog:
    """The solver window's text: what PySolFC shows as it reads the solver's progress."""

    def __init__(self) -> None:
        self.texts: list[dict[str, int]] = []

    def setText(self, **kwargs: int) -> None:  # noqa: N802  # PySolFC's name
        self.texts.append(kwargs)


def game_id(class_name: str) -> int:
    """Return the id of PySolFC's game whose class is ``class_name``."""
    from pysollib.gamedb import GAME_DB

    for gid in GAME_DB.getAllGames():
        info = GAME_DB.get(gid.id if hasattr(gid, "id") else gid)
        if info.gameclass.__name__ == class_name:
            return int(info.id)
    raise LookupError(f"PySolFC has no game class {class_name}")


def dealt_game(class_name: str, number: int) -> Any:
    """Return PySolFC's game ``class_name`` with its deal ``number`` laid out by its own
    shuffle and ``startGame``."""
    from pysollib.acard import AbstractCard
    from pysollib.gamedb import GAME_DB
    from pysollib.pysolrandom import construct_random

    class Card(AbstractCard):
        def showFace(self, unhide: int = 1) -> None:  # noqa: N802
            self.face_up = 1

        def showBack(self, unhide: int = 1) -> None:  # noqa: N802
            self.face_up = 0

    info = GAME_DB.get(game_id(class_name))
    game = info.gameclass(info)
    game.app, game.canvas, game.top = _App(), _Canvas(), Anything()
    game.createGame()
    game.cards = [Card(1000 + i, 0, suit, rank, game)
                  for i, (suit, rank) in enumerate((s, r) for s in range(4) for r in range(13))]
    for card in game.cards:
        card.item = Anything()
    game.moves.state = game.S_INIT
    game.random = construct_random(str(number))
    game.shuffle()
    game.startGame()
    game.moves.state = game.S_PLAY
    assert not game.s.talon.cards, "every card is dealt"
    return game


def card_text(card: Any) -> str:
    """Return a PySolFC card as text (``'TH'``)."""
    return "A23456789TJQK"[card.rank] + "CSHD"[card.suit]


def replay_hints(game: Any, solver: Any, moves: list[tuple[str, str]] | None = None) -> int:
    """Play the solver's hints the way PySolFC's demo does (each from ``getHints``, the
    foundation found by ``acceptsCards``), checking every move with PySolFC's own
    ``canMoveCards`` and ``acceptsCards``; return how many moves were played. With
    ``moves``, append to it each move's lowest moved card and the card it goes on (``""``
    for an empty place), as texts.

    Raises AssertionError at the first move PySolFC's rules refuse.
    """
    played = 0
    while True:
        hints = solver.getHints(None)
        if hints is None:
            return played
        _, _, ncards, src, dst, _, _ = hints[0]
        cards = src.cards[-ncards:]
        where = f"move {played + 1} ({ncards} from {src} to {dst})"
        assert len(cards) == ncards, f"{where}: the source holds too few cards"
        assert src.canMoveCards(cards), f"{where}: PySolFC's canMoveCards refuses it"
        assert dst.acceptsCards(src, cards), f"{where}: PySolFC's acceptsCards refuses it"
        if moves is not None:
            moves.append((card_text(cards[0]), card_text(dst.cards[-1]) if dst.cards else ""))
        for _ in cards:
            src.removeCard()
        for card in cards:
            dst.addCard(card)
        played += 1


def cards_home(game: Any) -> int:
    """Return how many cards are on PySolFC's foundations."""
    return sum(len(f.cards) for f in game.s.foundations)
