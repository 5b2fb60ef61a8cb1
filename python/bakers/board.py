"""The referee: a position of any game, its legal moves, and moves made and undone.

`Board` is written from the rules alone (``docs/rules.md``), in plain Python, to check the
C++ engine; it never imports ``bakers._core``. Every rule it applies comes from the
fields of the game's `Variant`: ``build``, ``empty``, ``moves``, ``cells``, ``deck``
and ``auto_aces``.

Conventions that the rules leave open:

* A move to a cell in ``legal_moves`` targets the first empty cell; a move to any other
  empty cell is legal too, it is just not listed twice.
* A card may go from a cell to another empty cell (the rules allow it, it is
  pointless): `push` accepts it, ``legal_moves`` does not list it.
* ``count=None`` is resolved by `Board.resolve`; ``legal_moves`` lists each move in
  the canonical form of `Board.canonical`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

from .cards import SUITS, Card, deck_ranks
from .errors import IllegalMoveError, InvalidDealError, InvalidMoveError
from .notation import CELL, CELL_LETTERS, COLUMN, FOUNDATION, MAX_CELLS, MAX_COLUMNS, Move, Place
from .variants import Variant, find_variant, game_first

if TYPE_CHECKING:
    from .deals import Deal

__all__ = ["Board", "LegalMoves", "Outcome"]

_BUILD_WORDS = {"suit": "builds down in suit", "alternate": "builds down in alternating "
                "colours", "any": "builds down regardless of suit"}


@dataclass(frozen=True, slots=True)
class _Undo:
    """What `Board.pop` needs to take a move back: the move as recorded, the cards it
    moved, and the (column, suit) of each exposed ace sent home after it, in order."""

    move: Move
    cards: tuple[Card, ...]
    auto: tuple[tuple[int, int], ...]


class LegalMoves:
    """The legal moves of a board, generated on demand, in canonical form.

    Iterating yields each move once; ``move in board.legal_moves`` says whether the
    move (a `Move` or its notation, ``"83"``) is legal (as `Board.is_legal`: a move to
    another empty cell, or with an implied count, is legal even though it is listed in
    canonical form only); a text that is no move is not in it.
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return self._board._generate()

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        return isinstance(move, Move) and self._board.is_legal(move)

    def count(self) -> int:
        """Return the number of legal moves."""
        return sum(1 for _ in self._board._generate())

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return next(self._board._generate(), None) is not None

    @overload
    def __getitem__(self, index: SupportsIndex) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Move | list[Move]:
        """Return the legal move at ``index`` in the order of iteration, or a list for a
        slice (the moves are generated for each call: keep ``list(legal_moves)`` to
        index many times)."""
        return list(self)[index]

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.notation() for m in self)})>"


class Board:
    """A position of one game, with the moves made since the start.

    ``Board(deal)`` takes anything with ``variant``, ``columns`` (each from the covered
    card to the exposed one), ``cells`` and ``foundations`` (per suit H, C, D, S the top
    rank, 0 for none), copies it, and sends exposed aces home if the game says so.

    Raises InvalidDealError for a position that is not one of its game: wrong number of
    columns or cells, a card twice or missing, a card both on the table and home.
    """

    def __init__(self, deal: Any) -> None:
        if not all(hasattr(deal, name) for name in ("variant", "columns", "cells", "foundations")):
            hint = (" (a game's name: use Board.from_number(game, n) or Board.from_text)"
                    if isinstance(deal, (str, int)) else "")
            raise TypeError(f"Board() takes a Deal or a Board, not {type(deal).__name__}{hint}")
        variant = find_variant(deal.variant)
        self.variant: Variant = variant
        self.columns: list[list[Card]] = [list(column) for column in deal.columns]
        self.cells: list[Card | None] = (
            [None] * variant.cells if deal.cells is None else list(deal.cells))
        self.foundations: list[int] = list(deal.foundations)
        self.move_stack: list[Move] = []
        self._undo: list[_Undo] = []
        in_play = [card for _, card in self._cards() if isinstance(card, Card)]
        #: the rank the foundations start at (the ace but in games with ``base_from_deal``)
        self.base_rank: int = variant.foundation_base(self.foundations, in_play)
        #: the ranks a foundation takes, in order
        self._ranks = variant.foundation_ranks(self.base_rank)
        #: for each foundation top rank (0 = empty) the rank that goes on it next (0 = none)
        self._next = dict(zip((0, *self._ranks), (*self._ranks, 0), strict=True))
        self._check_position()
        self._auto_aces()

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_number(cls, variant: str | Variant, number: int) -> Board:
        """Return the start of deal ``number`` of a game (dealt by `bakers.deals`).

        Raises UnknownVariantError, or the errors of ``Deal.from_number``.
        """
        from .deals import Deal

        return cls(Deal.from_number(find_variant(variant), number))

    @classmethod
    def from_text(cls, variant: str | Variant, text: str) -> Board:
        """Return the position of game ``variant`` in a Freecell Solver board text (read
        by `bakers.deals`; the game first, as everywhere in the API).

        Raises DealParseError or InvalidDealError, as ``Deal.parse`` does, and
        ArgumentOrderError for the text given before the game.
        """
        from .deals import Deal

        return cls(Deal.parse(game_first("Board.from_text", variant, text), text))

    @classmethod
    def from_position(cls, variant: str | Variant,
                      columns: Iterable[str | Iterable[Card | str]],
                      cells: Iterable[Card | str | None] = (),
                      foundations: Sequence[int] | None = None) -> Board:
        """Return a position built by hand: ``columns`` as strings (``"JD KD 2S"``,
        covered card first) or card lists, ``cells`` (missing ones are empty; ``None``
        or ``"-"`` for an empty cell), and ``foundations`` per suit H, C, D, S. When
        ``foundations`` is omitted, every card missing from the table is home, so that
        each suit's foundation holds the ranks below its lowest card on the table.

        Raises UnknownVariantError, CardParseError, or InvalidDealError (see `Board`).
        """
        game = find_variant(variant)

        def card(item: Card | str) -> Card:
            return item if isinstance(item, Card) else Card.parse(item)

        table = [[card(c) for c in (col.split() if isinstance(col, str) else col)]
                 for col in columns]
        held = [None if c is None or c == "-" else card(c) for c in cells]
        held += [None] * (game.cells - len(held))
        if foundations is None:
            in_play = [*[c for col in table for c in col], *[c for c in held if c]]
            foundations = _implied_foundations(game, in_play)
        return cls(_Position(game, table, held, tuple(foundations)))

    def _check_position(self) -> None:
        """Raise InvalidDealError unless the position has every card of the deck once."""
        v = self.variant
        if len(self.columns) != v.columns:
            raise InvalidDealError(
                f"{v.name} has {v.columns} columns, the position has {len(self.columns)}")
        if len(self.cells) != v.cells:
            raise InvalidDealError(
                f"{v.name} has {v.cells} cells, the position has {len(self.cells)}")
        if len(self.foundations) != 4 or any(r not in self._next for r in self.foundations):
            raise InvalidDealError(
                f"foundations {tuple(self.foundations)!r} are not four top ranks of the "
                f"{v.deck}-card deck (0 for an empty foundation)")
        seen: set[Card] = set()
        for where, card in self._cards():
            if not isinstance(card, Card):
                raise InvalidDealError(f"{where} holds {card!r}, which is not a Card")
            if card.rank not in self._ranks:
                raise InvalidDealError(f"{where}: card {str(card)!r} is not in the "
                                       f"{v.deck}-card deck")
            if card in seen:
                raise InvalidDealError(f"{where}: card {str(card)!r} appears twice")
            if self._rank_index(card.rank) <= self._rank_index(self.foundations[card.suit]):
                raise InvalidDealError(
                    f"{where}: card {str(card)!r} is also on its foundation "
                    f"({SUITS[card.suit]}-{_rank_text(self.foundations[card.suit])})")
            seen.add(card)
        for suit in range(4):
            for rank in self._ranks[self._rank_index(self.foundations[suit]) + 1:]:
                if Card(suit, rank) not in seen:
                    raise InvalidDealError(
                        f"card {str(Card(suit, rank))!r} is missing from the position")

    def _cards(self) -> Iterator[tuple[str, Any]]:
        for i, column in enumerate(self.columns):
            for card in column:
                yield f"column {i + 1}", card
        for i, held in enumerate(self.cells):
            if held is not None:
                yield f"cell {CELL_LETTERS[i]}", held

    def _rank_index(self, rank: int) -> int:
        """Return the position of ``rank`` in foundation order (-1 for 0, empty)."""
        return -1 if rank == 0 else self._ranks.index(rank)

    # -- the rules --------------------------------------------------------------------

    def _fits(self, card: Card, onto: Card) -> bool:
        """Return whether ``card`` builds on ``onto`` in a column."""
        return self.variant.builds(card.rank, card.suit, onto.rank, onto.suit)

    def _takes_empty(self, card: Card) -> bool:
        """Return whether an empty column takes ``card`` (alone or heading its sequence):
        "a king" is the last rank of the foundations, the rank below the base where the
        foundations start at another rank than the ace."""
        empty = self.variant.empty
        return empty == "any" or (empty == "kings" and card.rank == self._ranks[-1])

    def _depth(self, card: Card, onto: Card) -> int:
        """Return how deep below ``card`` (the top of a run) lies the card that would
        go on ``onto``: in a run ranks rise by one card by card (round the corner where
        the game wraps, so a run holds one card of each rank at most)."""
        n = onto.rank - card.rank
        return n % 13 if self.variant.wrap else n

    def _goes_home(self, card: Card) -> bool:
        """Return whether ``card`` is the next card of its foundation."""
        return self._next[self.foundations[card.suit]] == card.rank

    def _run(self, column: list[Card]) -> int:
        """Return how many cards on top of ``column`` form a sequence (0 if empty)."""
        if not column:
            return 0
        n = 1
        while n < len(column) and self._fits(column[-n], column[-n - 1]):
            n += 1
        return n

    def _limit(self, dst_empty: bool) -> int | None:
        """Return the most cards one column-to-column move may take (None: no limit)."""
        moves = self.variant.moves
        if moves == "single":
            return 1
        if moves == "sequence":
            return None
        free = self.cells.count(None) + 1
        if self.variant.empty != "any":
            return free
        empties = sum(1 for column in self.columns if not column) - (1 if dst_empty else 0)
        return free << max(empties, 0)

    def _empty_counts(self, src: list[Card], run: int, limit: int | None) -> list[int]:
        """Return the legal counts of a move from ``src`` to an empty column."""
        top = run if limit is None else min(run, limit)
        return [n for n in range(1, top + 1) if self._takes_empty(src[-n])]

    def _examine(self, move: Move) -> tuple[int, str | None]:
        """Return ``(count, None)`` for a legal move, with its count resolved, or
        ``(0, reason)`` for an illegal one."""
        v = self.variant
        src, dst = move.src, move.dst
        for place in (src, dst):
            if place.kind == COLUMN and place.index >= v.columns:
                return 0, f"there is no column {place.index + 1} ({v.name} has {v.columns})"
            if place.kind == CELL and place.index >= v.cells:
                cells = f"has {v.cells} cells" if v.cells else "has no cells"
                return 0, f"there is no cell {place.notation()} ({v.name} {cells})"
        if src.kind == CELL:
            card = self.cells[src.index]
            if card is None:
                return 0, f"cell {src.notation()} is empty"
            return self._examine_card(card, dst, move)
        column = self.columns[src.index]
        if not column:
            return 0, f"column {src.index + 1} is empty"
        if dst.kind != COLUMN:
            if move.count not in (None, 1):  # pragma: no cover - Move forbids it
                return 0, "only one card moves there"
            return self._examine_card(column[-1], dst, move)
        return self._examine_transfer(column, self.columns[dst.index], move)

    def _examine_card(self, card: Card, dst: Place, move: Move) -> tuple[int, str | None]:
        """Examine a move of the single card ``card`` to ``dst``."""
        if dst.kind == FOUNDATION:
            if self._goes_home(card):
                return 1, None
            top = self.foundations[card.suit]
            needs = f"{_rank_text(self._next[top])}{SUITS[card.suit]}" if self._next[top] \
                else "nothing"
            return 0, f"{card} does not go home (its foundation needs {needs})"
        if dst.kind == CELL:
            held = self.cells[dst.index]
            if held is not None:
                if None not in self.cells:
                    return 0, "no free cell"
                return 0, f"cell {dst.notation()} holds {held}"
            return 1, None
        if move.count not in (None, 1):  # pragma: no cover - Move forbids it
            return 0, "only one card moves from a cell"
        column = self.columns[dst.index]
        if column:
            if self._fits(card, column[-1]):
                return 1, None
            return 0, self._misfit(card, column[-1])
        if self._takes_empty(card):
            return 1, None
        return 0, self._empty_refusal()

    def _examine_transfer(self, src: list[Card], dst: list[Card],
                          move: Move) -> tuple[int, str | None]:
        """Examine a move from the column ``src`` to the column ``dst``."""
        v = self.variant
        run = self._run(src)
        limit = self._limit(dst_empty=not dst)
        count = move.count
        if count is None:
            if v.moves == "single":
                count = 1
            elif dst:
                count = self._depth(src[-1], dst[-1])  # how deep the card that fits lies
                if not (1 <= count <= run and self._fits(src[-count], dst[-1])):
                    if run == 1:
                        return 0, self._misfit(src[-1], dst[-1])
                    cards = " ".join(map(str, src[-run:]))
                    return 0, (f"no card of {cards} goes on {dst[-1]} "
                               f"({v.name} {_BUILD_WORDS[v.build]})")
            else:
                counts = self._empty_counts(src, run, None)
                if not counts:
                    return 0, self._empty_refusal()
                legal = [n for n in counts if limit is None or n <= limit]
                count = legal[-1] if legal else counts[0]
        if count > 1 and v.moves == "single":
            return 0, f"{v.name} moves one card at a time, not {count}"
        if count > len(src):
            return 0, (f"column {move.src.index + 1} has only {len(src)} "
                       f"card{'s' * (len(src) != 1)}, not {count}")
        if count > run:
            cards = " ".join(map(str, src[-count:]))
            return 0, (f"{cards} is not a sequence ({v.name} {_BUILD_WORDS[v.build]})")
        bottom = src[-count]
        if dst and not self._fits(bottom, dst[-1]):
            return 0, self._misfit(bottom, dst[-1])
        if not dst and not self._takes_empty(bottom):
            return 0, self._empty_refusal()
        if limit is not None and count > limit:
            return 0, self._limit_refusal(count, limit, not dst)
        return count, None

    def _misfit(self, card: Card, onto: Card) -> str:
        v = self.variant
        return f"{card} does not go on {onto} ({v.name} {_BUILD_WORDS[v.build]})"

    def _empty_refusal(self) -> str:
        if self.variant.empty == "none":
            return f"an empty column takes nothing in {self.variant.name}"
        if self._ranks[-1] != 13:
            return (f"an empty column takes only a {_rank_text(self._ranks[-1])} (the rank "
                    f"below the base {_rank_text(self._ranks[0])}, with its sequence) in "
                    f"{self.variant.name}")
        return f"an empty column takes only a king (with its sequence) in {self.variant.name}"

    def _limit_refusal(self, count: int, limit: int, dst_empty: bool) -> str:
        free = self.cells.count(None)
        empties = sum(1 for column in self.columns if not column) - (1 if dst_empty else 0)
        spaces = f"{free} free cell{'s' * (free != 1)}"
        if self.variant.empty == "any":
            other = "other " if dst_empty else ""
            spaces += f" and {empties} {other}empty column{'s' * (empties != 1)}"
        return f"{count} cards is more than the {limit} that {spaces} can move"

    # -- moves ------------------------------------------------------------------------

    def empty_column_counts(self, move: Move | str) -> list[int]:
        """Return the legal counts of ``move``, largest first, when it moves from a column
        to an empty column without a count (standard notation writes such a move the
        same for one card and for a run); else an empty list. Several counts mean the
        token is ambiguous: `push` reads it as the largest."""
        v = self.variant
        move = _as_move(move, "empty_column_counts")
        src, dst = move.src, move.dst
        if move.count is not None or src.kind != COLUMN or dst.kind != COLUMN:
            return []
        if src.index >= v.columns or dst.index >= v.columns or self.columns[dst.index]:
            return []
        column = self.columns[src.index]
        if not column:
            return []
        # the legal counts are those `_examine_transfer` allows with the count explicit:
        # at most the run on top of the column and the limit of the spaces, its base a
        # card the empty column takes (`_limit` is 1 where the game moves single cards)
        limit = self._limit(dst_empty=True)
        return self._empty_counts(column, self._run(column), limit)[::-1]

    def is_legal(self, move: Move | str) -> bool:
        """Return whether ``move`` (a `Move` or its notation, ``'83'``) is legal here (an
        implied count resolved first).

        Raises InvalidMoveError for notation that does not parse, TypeError for anything
        that is neither a Move nor a str.
        """
        return self._examine(_as_move(move, "is_legal"))[1] is None

    def resolve(self, move: Move | str) -> Move:
        """Return ``move`` with its count made explicit. ``count=None`` means: one card,
        except for a multi-card game's column-to-column move, where it is the one count
        that fits a non-empty column, or the largest legal count for an empty one.

        Raises IllegalMoveError saying why the move is illegal, InvalidMoveError for
        notation that does not parse.
        """
        move = _as_move(move, "resolve")
        count, reason = self._examine(move)
        if reason is not None:
            raise self._illegal(move, reason)
        return Move(move.src, move.dst, count)

    def canonical(self, move: Move | str) -> Move:
        """Return ``move`` as ``legal_moves`` lists it: ``count=None`` when it moves one
        card and an implied count would be 1 too, else the explicit count.

        Raises IllegalMoveError saying why the move is illegal, InvalidMoveError for
        notation that does not parse.
        """
        move = _as_move(move, "canonical")
        count, reason = self._examine(move)
        if reason is not None:
            raise self._illegal(move, reason)
        return self._canonical(move, count)

    def _canonical(self, move: Move, count: int) -> Move:
        """Return the canonical form of a legal ``move`` that takes ``count`` cards."""
        if count == 1:
            if move.count is None:
                return move
            transfer = (self.variant.moves != "single"
                        and move.src.kind == move.dst.kind == COLUMN)
            if not transfer or self._examine(Move(move.src, move.dst))[0] == 1:
                return Move._trusted(move.src, move.dst)
        return move if move.count == count else Move._trusted(move.src, move.dst, count)

    def _illegal(self, move: Move, reason: str) -> IllegalMoveError:
        error = IllegalMoveError(f"{move.notation()!r}: {reason}")
        error.move = move  # type: ignore[attr-defined]
        error.reason = reason  # type: ignore[attr-defined]
        return error

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, generated lazily, in canonical form (see `LegalMoves`)."""
        return LegalMoves(self)

    def _generate(self) -> Iterator[Move]:
        """Yield every legal move once, in canonical form: for each column then each
        cell, moves to the foundations, to the first empty cell, onto each non-empty
        column, then to each empty column."""
        columns, cells, fits = self.columns, self.cells, self._fits
        trusted = Move._trusted
        free_cell = cells.index(None) if None in cells else -1
        multi = self.variant.moves != "single"
        tops = [column[-1] if column else None for column in columns]
        empties = [j for j, top in enumerate(tops) if top is None]
        limit_onto = self._limit(dst_empty=False)
        limit_empty = self._limit(dst_empty=True) if empties else 0
        for i, src in enumerate(columns):
            if not src:
                continue
            card = src[-1]
            here = _COLUMNS[i]
            if self._goes_home(card):
                yield trusted(here, _HOME)
            if free_cell >= 0:
                yield trusted(here, _CELLS[free_cell])
            run = self._run(src) if multi else 1
            reach = run if limit_onto is None else min(run, limit_onto)
            for j, onto in enumerate(tops):
                if onto is None or j == i:
                    continue
                # in a sequence ranks go up by one card by card: the one that could go
                # on ``onto`` is n cards deep
                n = self._depth(card, onto)
                if 1 <= n <= reach and fits(src[-n], onto):
                    yield trusted(here, _COLUMNS[j], None if n == 1 else n)
            if empties:
                counts = self._empty_counts(src, run, limit_empty)
                explicit = bool(counts) and counts[-1] > 1
                for j in empties:
                    for n in counts:
                        yield trusted(here, _COLUMNS[j], n if explicit else None)
        for i, held in enumerate(cells):
            if held is None:
                continue
            card = held
            here = _CELLS[i]
            if self._goes_home(card):
                yield trusted(here, _HOME)
            for j, onto in enumerate(tops):
                if fits(card, onto) if onto is not None else self._takes_empty(card):
                    yield trusted(here, _COLUMNS[j])

    def push(self, move: Move | str) -> Move:
        """Make ``move`` (a `Move` or its notation, ``'3a'``), then the game's mandatory
        moves (exposed aces home); record it on ``move_stack`` in canonical form, which is
        returned.

        Raises IllegalMoveError saying why the move is illegal (the board is unchanged),
        InvalidMoveError for notation that does not parse, TypeError for anything that is
        neither a Move nor a str.
        """
        move = _as_move(move, "push")
        count, reason = self._examine(move)
        if reason is not None:
            raise self._illegal(move, reason)
        canonical = self._canonical(move, count)
        moved = self._take(canonical.src, count)
        self._put(canonical.dst, moved)
        self.move_stack.append(canonical)
        self._undo.append(_Undo(canonical, tuple(moved), self._auto_aces()))
        return canonical

    def push_notation(self, text: str) -> Move:
        """Parse ``text`` (``'3a'``, ``'35x3'``) and push it; return the move pushed.

        Raises InvalidMoveError for bad syntax, IllegalMoveError for an illegal move.
        """
        return self.push(Move.parse(text))

    def pop(self) -> Move:
        """Take back the last move (and the mandatory moves that followed it); return it.

        Raises IndexError when no move has been made.
        """
        if not self._undo:
            raise IndexError("pop from a board with no moves made")
        undo = self._undo.pop()
        self.move_stack.pop()
        for column, suit in reversed(undo.auto):
            self.foundations[suit] = 0
            self.columns[column].append(Card(suit, 1))
        src, dst = undo.move.src, undo.move.dst
        if dst.kind == COLUMN:
            del self.columns[dst.index][-len(undo.cards):]
        elif dst.kind == CELL:
            self.cells[dst.index] = None
        else:
            card = undo.cards[0]
            self.foundations[card.suit] = self._ranks[self._rank_index(card.rank) - 1] \
                if card.rank != self._ranks[0] else 0
        self._put(src, list(undo.cards))
        return undo.move

    def forget_moves(self) -> None:
        """Forget the moves made (``move_stack``, and what `pop` would take back), keeping
        the position: a long replay that never takes a move back holds no record of them."""
        self.move_stack.clear()
        self._undo.clear()

    def peek(self) -> Move:
        """Return the last move made. Raises IndexError when no move has been made."""
        if not self.move_stack:
            raise IndexError("peek at a board with no moves made")
        return self.move_stack[-1]

    def _take(self, src: Place, count: int) -> list[Card]:
        """Remove and return the top ``count`` cards of a column, or a cell's card."""
        if src.kind == COLUMN:
            column = self.columns[src.index]
            cards = column[-count:]
            del column[-count:]
            return cards
        card = self.cells[src.index]
        assert card is not None
        self.cells[src.index] = None
        return [card]

    def _put(self, dst: Place, cards: list[Card]) -> None:
        """Put ``cards`` on a column, in a cell, or (one card) on its foundation."""
        if dst.kind == COLUMN:
            self.columns[dst.index].extend(cards)
        elif dst.kind == CELL:
            self.cells[dst.index] = cards[0]
        else:
            self.foundations[cards[0].suit] = cards[0].rank

    def _auto_aces(self) -> tuple[tuple[int, int], ...]:
        """Send every exposed ace home if the game says so; return their (column, suit)."""
        if not self.variant.auto_aces:
            return ()
        moved: list[tuple[int, int]] = []
        found = True
        while found:
            found = False
            for i, column in enumerate(self.columns):
                if column and column[-1].rank == 1 and self.foundations[column[-1].suit] == 0:
                    suit = column.pop().suit
                    self.foundations[suit] = 1
                    moved.append((i, suit))
                    found = True
        return tuple(moved)

    # -- supermoves ---------------------------------------------------------------------

    def expand(self, move: Move | str) -> list[Move]:
        """Return the single-card moves that ``move`` stands for, in order, through free
        cells and empty columns; pushed one by one they reach the position that pushing
        ``move`` does. A single-card move, or a sequence move of a ``'sequence'`` game
        (which the rules allow as one move), gives ``[canonical(move)]``.

        Raises IllegalMoveError saying why the move is illegal.
        """
        canonical = self.canonical(_as_move(move, "expand"))
        count = self._examine(canonical)[0]
        if count == 1 or self.variant.moves != "supermove":
            return [canonical]
        cells = [i for i, card in enumerate(self.cells) if card is None]
        empties = [] if self.variant.empty != "any" else [
            i for i, column in enumerate(self.columns)
            if not column and i != canonical.dst.index]
        steps = _chain(count, canonical.src.index, canonical.dst.index, cells, empties)
        scratch = self.copy(stack=False)
        result = []
        for src, dst in steps:
            result.append(scratch.push(Move(src, dst, 1)))
        return result

    # -- auto-complete ------------------------------------------------------------------

    def autocomplete(self) -> list[Move] | None:
        """Return the moves that finish the game when the rest needs no decision, else
        None; the board is not modified (push the moves to play them).

        "Needs no decision" means: the position is won by foundation moves alone, i.e.
        sending home, again and again, any exposed card or card in a cell that goes
        home puts every card on the foundations. Whether that happens does not depend
        on the order: a foundation move never covers a card and a card that can go home
        stays able to until it does, so if one order of foundation moves wins, every
        order does. The moves returned take, at each step, the card of lowest rank that
        can go home (ties: columns before cells, lower index first), so the cards rise
        evenly. A won board gives ``[]``; a position that still needs a move to a column
        or a cell gives None, even when it is winnable (ask a solver for those).

        Raises nothing.
        """
        board = self.copy(stack=False)
        moves: list[Move] = []
        while not board.is_won():
            best: tuple[int, Place] | None = None
            places = [(_COLUMNS[i], column[-1] if column else None)
                      for i, column in enumerate(board.columns)]
            places += [(_CELLS[i], card) for i, card in enumerate(board.cells)]
            for place, card in places:
                if card is not None and board._goes_home(card):
                    rank = board._rank_index(card.rank)
                    if best is None or rank < best[0]:
                        best = (rank, place)
            if best is None:
                return None
            moves.append(board.push(Move._trusted(best[1], _HOME)))
        return moves

    # -- queries ----------------------------------------------------------------------

    def foundation_count(self) -> int:
        """Return the number of cards on the foundations."""
        return sum(self._rank_index(rank) + 1 for rank in self.foundations)

    def is_won(self) -> bool:
        """Return whether every card is on the foundations."""
        return self.foundation_count() == self.variant.deck

    def is_game_over(self) -> bool:
        """Return whether the game is over: won, or no legal move left (as in
        python-chess, `outcome` says which)."""
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it goes on: ``Outcome('won')`` with
        every card home, ``Outcome('no_moves')`` when no legal move is left (a card
        moved from one free cell to another changes nothing, so it does not count)."""
        if self.is_won():
            return Outcome("won")
        if not self.legal_moves:
            return Outcome("no_moves")
        return None

    def key(self) -> tuple[object, ...]:
        """Return a hashable form of the position that is the same for positions that
        differ only by the order of their cells or of their columns."""
        columns = sorted(tuple(card.code for card in column) for column in self.columns)
        cells = sorted(card.code for card in self.cells if card is not None)
        return (tuple(self.foundations), tuple(cells), tuple(columns))

    def copy(self, stack: bool = True) -> Board:
        """Return a copy of the board, with its moves made (``stack=True``) or without."""
        board = object.__new__(Board)
        board.variant = self.variant
        board.columns = [list(column) for column in self.columns]
        board.cells = list(self.cells)
        board.foundations = list(self.foundations)
        board.move_stack = list(self.move_stack) if stack else []
        board._undo = list(self._undo) if stack else []
        board.base_rank = self.base_rank
        board._ranks = self._ranks
        board._next = self._next
        return board

    def to_deal(self) -> Deal:
        """Return the position as a `bakers.deals.Deal`."""
        from .deals import Deal

        return Deal(variant=self.variant,
                    columns=tuple(tuple(column) for column in self.columns),
                    cells=tuple(self.cells), foundations=tuple(self.foundations))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.variant == other.variant and self.columns == other.columns
                and self.cells == other.cells and self.foundations == other.foundations)

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        homes = " ".join(f"{SUITS[s]}-{_rank_text(r)}" for s, r in enumerate(self.foundations))
        lines = [f"Foundations: {homes}"]
        if self.cells:
            lines.append("Freecells:  " + " ".join(
                "--" if card is None else str(card) for card in self.cells))
        lines += [(": " + " ".join(map(str, column))).rstrip() for column in self.columns]
        return "\n".join(lines)

    def __repr__(self) -> str:
        stack = f", {len(self.move_stack)} moves made" if self.move_stack else ""
        return (f"<Board {self.variant.name}: {self.foundation_count()}/{self.variant.deck} "
                f"home{stack}>")


@dataclass(frozen=True)
class Outcome:
    """How a game ended (`Board.outcome`): ``termination`` is ``'won'`` (every card
    home) or ``'no_moves'`` (no legal move left); ``won`` says whether it was won."""

    termination: str

    @property
    def won(self) -> bool:
        """Whether every card went home."""
        return self.termination == "won"

    def result(self) -> str:
        """Return ``'won'`` or ``'lost'``."""
        return "won" if self.won else "lost"


def _as_move(move: object, call: str) -> Move:
    """Return ``move``, a `Move` or its notation, as a Move.

    Raises InvalidMoveError for notation that does not parse, TypeError for anything else.
    """
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise TypeError(f"Board.{call} takes a Move or its notation (a str), not "
                    f"{type(move).__name__}")


_COLUMNS = tuple(Place(COLUMN, i) for i in range(MAX_COLUMNS))
_CELLS = tuple(Place(CELL, i) for i in range(MAX_CELLS))
_HOME = Place(FOUNDATION, 0)


@dataclass(frozen=True)
class _Position:
    variant: Variant
    columns: list[list[Card]]
    cells: list[Card | None]
    foundations: tuple[int, ...]


def _implied_foundations(variant: Variant, in_play: list[Card]) -> list[int]:
    """Return the foundations that hold every card not in play: each suit's ranks before
    its lowest in play (from the base rank that makes this so for every suit, where the
    game reads its base from the foundations)."""
    def tops(ranks: Sequence[int]) -> list[int]:
        lowest = [len(ranks)] * 4
        for c in in_play:
            if c.rank in ranks:
                lowest[c.suit] = min(lowest[c.suit], ranks.index(c.rank))
        return [0 if low == 0 else ranks[low - 1] for low in lowest]

    if variant.base_from_deal:
        for base in range(1, 14):
            ranks = variant.foundation_ranks(base)
            found = tops(ranks)
            home = sum(0 if top == 0 else ranks.index(top) + 1 for top in found)
            if any(found) and home + len(in_play) == 52:
                return found
    return tops(deck_ranks(variant.deck))


def _rank_text(rank: int) -> str:
    return "0" if rank == 0 else "0A23456789TJQK"[rank]


def _chain(count: int, src: int, dst: int, cells: list[int],
           empties: list[int]) -> list[tuple[Place, Place]]:
    """Return the single-card steps that move ``count`` cards from column ``src`` to
    column ``dst`` through the free ``cells`` and the ``empties`` columns."""
    s, d = Place(COLUMN, src), Place(COLUMN, dst)
    if count <= len(cells) + 1:
        parked = [Place(CELL, c) for c in cells[:count - 1]]
        return ([(s, p) for p in parked] + [(s, d)] + [(p, d) for p in reversed(parked)])
    spare, rest = empties[0], empties[1:]
    part = min((len(cells) + 1) << len(rest), count - 1)
    return (_chain(part, src, spare, cells, rest)
            + _chain(count - part, src, dst, cells, rest)
            + _chain(part, spare, dst, cells, rest))
