"""Types of the compiled core `bakers._core` (cpp/bindings/): what each function takes
and the tuples and dicts it returns. Cards are codes ``suit * 16 + rank`` (0 = none);
a move is ``(src_kind, src, dst_kind, dst, count)`` with kinds 0 column, 1 cell,
2 foundation; verdicts are ``'solved'``, ``'impossible'`` or ``'unknown'``."""

from collections.abc import Callable, Sequence
from typing import Any, TypedDict

#: The searches' names, as `solve`'s ``method`` takes them (cpp/core/solve.hpp).
METHODS: tuple[str, ...]
#: The most threads one search takes.
MAX_SEARCH_THREADS: int
#: The most worker threads one `RangeRun` takes.
MAX_POOL_THREADS: int

_Rules = dict[str, Any]  # `Variant.rules()`
_Move = tuple[int, int, int, int, int]
# (columns bottom to top, cells, foundation heights by suit)
_Layout = tuple[list[list[int]], list[int], list[int]]
# (number, verdict, moves, expanded, stored, peak_bytes, seconds, most_home, reason)
_NumberRow = tuple[int, str, int, int, int, int, float, int, str]
# (index, number, verdict, moves, compact, expanded, generated, stored, peak_bytes,
#  seconds, most_home, reason); moves and compact are None unless solved
_RangeRow = tuple[int, int, str, list[_Move] | None, list[_Move] | None, int, int, int, int,
                  float, int, str]

class _Solved(TypedDict):
    """What `solve` returns."""

    verdict: str
    reason: str  # why 'unknown': the limit, or 'interrupted'; else ''
    moves: list[_Move]  # the winning line in single-card moves (empty unless solved)
    compact: list[_Move]  # the same line with supermoves kept whole
    expanded: int
    generated: int
    stored: int
    peak_bytes: int
    seconds: float
    most_home: int

class CheckpointMismatch(ValueError):
    """A checkpoint file of another search or settings, or a damaged one."""

class CheckpointIOError(OSError):
    """A checkpoint file that cannot be written or read."""

def deal(rules: _Rules, number: int) -> _Layout: ...
def legal_moves(rules: _Rules, columns: Sequence[Sequence[int]], cells: Sequence[int],
                found: Sequence[int]) -> list[_Move]: ...
def settle(rules: _Rules, columns: Sequence[Sequence[int]], cells: Sequence[int],
           found: Sequence[int]) -> tuple[list[_Move], _Layout]: ...
def solve(rules: _Rules, columns: Sequence[Sequence[int]], cells: Sequence[int],
          found: Sequence[int], max_nodes: int = 0, max_states: int = 0, max_bytes: int = 0,
          max_seconds: float = 0.0, forget: bool = False, threads: int = 1,
          method: str = "best-first",
          progress: Callable[[int, int, float, int], object] | None = None,
          checkpoint: str = "", checkpoint_seconds: float = 900.0) -> _Solved: ...
def solve_numbers(rules: _Rules, first: int, last: int, max_nodes: int = 0,
                  max_states: int = 0, max_bytes: int = 0, max_seconds: float = 0.0,
                  forget: bool = False, method: str = "best-first",
                  ) -> tuple[list[_NumberRow], bool]: ...

def row_text(format: str, game: str, deal: int, verdict: str, moves: int, most_home: int,
             most_home_exact: bool, expanded: int, stored: int, peak_bytes: int,
             seconds: float, reason: str) -> str: ...
class RangeRun:
    """Decides many deals, or positions, on worker threads; iterate it for the rows."""

    def __init__(self, rules: _Rules, numbers: Sequence[int],
                 positions: Sequence[tuple[Sequence[Sequence[int]], Sequence[int], Sequence[int]]],
                 threads: int = 1, max_nodes: int = 0, max_states: int = 0, max_bytes: int = 0,
                 max_seconds: float = 0.0, forget: bool = False, ordered: bool = False,
                 keep_moves: bool = True, method: str = "best-first") -> None: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> RangeRun: ...
    def __next__(self) -> _RangeRow: ...
    def take_text(self, format: str, game: str, impossible_exact: bool, most: int = 4096,
                  ms: int = 100) -> tuple[str, int, tuple[int, int, int], bytes, int]: ...
    def done(self) -> bool: ...
    def stop(self) -> None: ...
