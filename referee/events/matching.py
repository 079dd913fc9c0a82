"""Whether a group of entrants can all be paired without a rematch: a perfect matching of
the graph "has not met yet" (Edmonds' blossom algorithm), with two quick answers first.
Pure: the Swiss pairing asks it before it commits to a choice (look-ahead), so that what
it leaves for the brackets below can always be paired."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

CanMeet = Callable[[str, str], bool]
"""Whether two entrants may be paired (they have not met)."""


def matchable(players: Sequence[str], can_meet: CanMeet) -> bool:
    """Whether every one of ``players`` can be paired with another of them."""
    count = len(players)
    if count % 2:
        return False
    if count == 0:
        return True
    neighbours = [
        [j for j, other in enumerate(players) if j != i and can_meet(player, other)]
        for i, player in enumerate(players)
    ]
    if min(len(found) for found in neighbours) >= count / 2:
        return True  # Dirac: a Hamiltonian cycle, so a perfect matching (count even)
    if _greedy(neighbours):
        return True
    return maximum_matching(neighbours) * 2 == count


def _greedy(neighbours: list[list[int]]) -> bool:
    """A quick try: each vertex in turn with its first free neighbour."""
    taken = [False] * len(neighbours)
    for vertex, around in enumerate(neighbours):
        if taken[vertex]:
            continue
        partner = next((other for other in around if not taken[other] and other > vertex), None)
        if partner is None:
            return False
        taken[vertex] = taken[partner] = True
    return True


def maximum_matching(neighbours: list[list[int]]) -> int:
    """The size of a maximum matching of a graph given by adjacency lists (Edmonds)."""
    size = len(neighbours)
    match = [-1] * size
    found = 0
    for root in range(size):
        if match[root] == -1:
            end, parent = _augmenting_path(neighbours, match, root)
            if end == -1:
                continue
            found += 1
            vertex = end
            while vertex != -1:
                before, after = parent[vertex], match[parent[vertex]]
                match[vertex], match[before] = before, vertex
                vertex = after
    return found


def _augmenting_path(
    neighbours: list[list[int]], match: list[int], root: int
) -> tuple[int, list[int]]:
    """The free end of an augmenting path from ``root`` (-1: none) and the search tree's
    parents, along which the caller flips the path."""
    size = len(neighbours)
    used = [False] * size
    parent = [-1] * size
    base = list(range(size))
    used[root] = True
    queue = deque([root])
    while queue:
        vertex = queue.popleft()
        for other in neighbours[vertex]:
            if base[vertex] == base[other] or match[vertex] == other:
                continue
            if other == root or (match[other] != -1 and parent[match[other]] != -1):
                common = _common_base(base, match, parent, vertex, other)
                blossom = [False] * size
                _mark(base, match, parent, blossom, vertex, common, other)
                _mark(base, match, parent, blossom, other, common, vertex)
                for inner in range(size):
                    if blossom[base[inner]]:
                        base[inner] = common
                        if not used[inner]:
                            used[inner] = True
                            queue.append(inner)
            elif parent[other] == -1:
                parent[other] = vertex
                if match[other] == -1:
                    return other, parent
                used[match[other]] = True
                queue.append(match[other])
    return -1, parent


def _common_base(base: list[int], match: list[int], parent: list[int], a: int, b: int) -> int:
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if match[a] == -1:
            break
        a = parent[match[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[match[b]]


def _mark(
    base: list[int],
    match: list[int],
    parent: list[int],
    blossom: list[bool],
    vertex: int,
    common: int,
    child: int,
) -> None:
    while base[vertex] != common:
        blossom[base[vertex]] = blossom[base[match[vertex]]] = True
        parent[vertex] = child
        child = match[vertex]
        vertex = parent[match[vertex]]
