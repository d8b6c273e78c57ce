"""python_map_rect: Map.set_rect and Map.fill_rect through ctypes (the package capi/python/lddb).

Needs the shared library in LDDB_LIBRARY (ctest passes lddb_c_shared). Each rectangle is
applied to one map with set_rect or fill_rect and to another cell by cell with set_blocked;
the two must read back the same cells and give the same paths. Every bytes-like kind of
buffer is taken; a refused rectangle raises and changes nothing."""
import array
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "capi", "python"))
import lddb  # noqa: E402
from test_c_api import expect, raises  # noqa: E402  (the checks python_c_api reports with)

W, H = 150, 70


def cells(grid):
    return [[grid.blocked(x, y) for x in range(W)] for y in range(H)]


def packed(rows):
    """Rows of booleans as set_rect reads them: row-major, least significant bit first."""
    flat = [b for row in rows for b in row]
    out = bytearray((len(flat) + 7) // 8)
    for k, b in enumerate(flat):
        if b:
            out[k // 8] |= 1 << (k % 8)
    return out


def outcome(ctx, db, grid):
    """A search across the map: its status and cost, or the error it raised."""
    try:
        r = ctx.solve(db, grid, (1, 1), (W - 2, H - 2))
        return r.status, r.cost_fixed
    except lddb.LddbError as e:
        return type(e).__name__, str(e)


def main():
    lib = lddb.load()
    db = lib.open_database(os.path.join(SOURCE, "lddb", "octile-4.lddb"))
    ctx = lib.create_context()
    rng = random.Random(5)
    rect_map, loop_map = lib.create_map(W, H, 4), lib.create_map(W, H, 4)
    # Rectangles: across the word boundary at x = 64, the whole map, one cell, along an edge.
    rects = [(60, 3, 11, 9), (0, 0, W, H), (7, 8, 1, 1), (W - 20, H - 1, 20, 1), (0, 10, W, 30)]
    kinds = [bytes, bytearray, memoryview, lambda b: array.array("B", b), lambda b: memoryview(bytearray(b))]
    for step in range(12):
        x, y, w, h = rects[step % len(rects)]
        free = step % 3 == 1
        rows = [[rng.random() < 0.2 for _ in range(w)] for _ in range(h)]
        if step % 4 == 3:
            blocked = step % 8 == 3
            rect_map.fill_rect(x, y, w, h, blocked=blocked)
            rows = [[blocked] * w for _ in range(h)]
            free = False
        else:
            bits = kinds[step % len(kinds)](bytes(packed(rows)))
            rect_map.set_rect(x, y, w, h, bits, free=free)
        for j in range(h):
            for i in range(w):
                loop_map.set_blocked(x + i, y + j, rows[j][i] != free)
        expect(cells(rect_map) == cells(loop_map), f"step {step}: rectangle {(x, y, w, h)} reads back otherwise")
        for grid in (rect_map, loop_map):  # the ends free in both, so that the search runs
            grid.set_blocked(1, 1, False)
            grid.set_blocked(W - 2, H - 2, False)
        a, b = outcome(ctx, db, rect_map), outcome(ctx, db, loop_map)
        expect(a == b, f"step {step}: {a} != {b}")

    # The default blocks; a NumPy-like buffer of other items is read as its bytes.
    rect_map.fill_rect(0, 0, W, H, blocked=False)
    rect_map.set_rect(0, 0, 16, 2, array.array("H", [0x8001, 0x0002]))
    expect(rect_map.blocked(0, 0) and rect_map.blocked(15, 0) and rect_map.blocked(1, 1), "16-bit items as bytes")
    expect(not rect_map.blocked(1, 0) and not rect_map.blocked(0, 1), "16-bit items: other cells free")

    before = cells(rect_map)
    raises(lambda: rect_map.set_rect(W - 2, 0, 3, 1, b"\xff"), lddb.InvalidArgument, "lddb_map_set_rect")
    raises(lambda: rect_map.fill_rect(0, -1, 2, 2), lddb.InvalidArgument, "not wholly on the 150 x 70 map")
    raises(lambda: rect_map.fill_rect(0, 0, 0, 2), lddb.InvalidArgument, "'width'")
    raises(lambda: rect_map.set_rect(0, 0, 9, 7, b"\xff" * 7), lddb.InvalidArgument, "'bits_size' is 7 bytes")
    raises(lambda: rect_map.set_rect(0, 0, 1, 1, b""), lddb.InvalidArgument, "'bits_size' is 0 bytes")
    raises(lambda: rect_map.set_rect(0, 0, 1, 1, "text"), TypeError, "")
    expect(cells(rect_map) == before, "a refused rectangle changed the map")
    rect_map.close()
    raises(lambda: rect_map.fill_rect(0, 0, 1, 1), lddb.LddbError, "")
    print("python_map_rect: ok")


if __name__ == "__main__":
    main()
