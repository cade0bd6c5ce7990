"""Compiled inner loops of :mod:`cubescan.scanner.grid` (numba).

Kept apart from the detector's logic so that grid.py reads as the algorithm, and so that
numba's on-disk cache, which is keyed to the source file, survives edits of grid.py.
Each function is a plain loop over NumPy arrays; grid.py documents what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, error_model="numpy")
def _project(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    # Point by point (the same arithmetic whatever the batch, unlike a BLAS product); a
    # point at infinity is kept finite.
    h = homography
    out = np.empty((len(points), 2))
    for i in range(len(points)):
        x, y = points[i, 0], points[i, 1]
        w = x * h[2, 0] + y * h[2, 1] + h[2, 2]
        if abs(w) < 1e-12:
            w = 1e-12
        out[i, 0] = (x * h[0, 0] + y * h[0, 1] + h[0, 2]) / w
        out[i, 1] = (x * h[1, 0] + y * h[1, 1] + h[1, 2]) / w
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _free_region_stats(edges: np.ndarray):
    """The regions between an edge image's edges, grown by one pixel right and down (as
    ``cv2.dilate`` with a 2 x 2 kernel grows them): each 4-connected region's area, bounding
    box (left, top, width, height), centroid and second moments, label 0 being the grown
    edges. Labels and statistics are those of ``cv2.connectedComponentsWithStats`` of the
    pixels the grown edges leave free (regions numbered in the order their first pixel comes
    in a row-by-row scan, as OpenCV numbers them).

    One pass over the rows finds each row's runs of free pixels and joins those that share a
    column with a run of the row above (union-find, the earlier run the root); the runs then
    add up into their regions. A run's coordinate sums have closed forms, so the sums are
    exact integers and the moments lose only the final subtraction's rounding.

    Returns the stats (count, 5) int64 in OpenCV's column order (left, top, width, height,
    area), the centroids (count, 2) and the sums of dx*dx, dy*dy and dx*dy about the
    centroid (count, 3).
    """
    height, width = edges.shape
    most = height * (width // 2 + 1)  # free runs: at most every other pixel starts one
    run_y = np.empty(most, np.int64)
    run_start = np.empty(most, np.int64)
    run_end = np.empty(most, np.int64)
    parent = np.empty(most, np.int64)
    blocked = np.zeros(width, np.uint8)
    edge_stats = _empty_stats(1, width)
    edge_sums = np.zeros((1, 5), np.int64)
    runs = 0
    row_first = 0  # the previous row's first run
    for y in range(height):
        # Blocked: an edge on the pixel, or on its neighbour left, up or up-left.
        left = 0
        for x in range(width):
            here = edges[y, x] | (edges[y - 1, x] if y > 0 else 0)
            blocked[x] = here | left
            left = here
        this_first = runs
        x = 0
        while x < width:
            start = x
            while x < width and blocked[x]:
                x += 1
            if x > start:
                _add_run(edge_stats, edge_sums, 0, y, start, x)
            start = x
            while x < width and not blocked[x]:
                x += 1
            if x > start:
                run_y[runs], run_start[runs], run_end[runs] = y, start, x
                parent[runs] = runs
                runs += 1
        # Join each run to the runs above that share a column with it.
        above = row_first
        for run in range(this_first, runs):
            while above < this_first and run_end[above] <= run_start[run]:
                above += 1
            other = above
            while other < this_first and run_start[other] < run_end[run]:
                a, b = _root(parent, run), _root(parent, other)
                parent[max(a, b)] = min(a, b)
                other += 1
        row_first = this_first
    label = np.empty(runs, np.int64)
    count = 1
    for run in range(runs):
        root = _root(parent, run)
        if root == run:
            label[run] = count
            count += 1
        else:
            label[run] = label[root]  # the root came first, so it has its label
    stats = _empty_stats(count, width)
    sums = np.zeros((count, 5), np.int64)
    for k in range(5):  # element by element: a row copy costs seconds of compiling
        stats[0, k], sums[0, k] = edge_stats[0, k], edge_sums[0, k]
    for run in range(runs):
        _add_run(stats, sums, label[run], run_y[run], run_start[run], run_end[run])
    centroids = np.zeros((count, 2))
    moments = np.zeros((count, 3))
    for region in range(count):
        area = stats[region, 4]
        stats[region, 2] = stats[region, 2] - stats[region, 0] + 1
        stats[region, 3] = stats[region, 3] - stats[region, 1] + 1
        if area > 0:
            cx, cy = sums[region, 0] / area, sums[region, 1] / area
            centroids[region, 0], centroids[region, 1] = cx, cy
            # sum (x - cx)^2 = sum x^2 - cx sum x, and alike.
            moments[region, 0] = sums[region, 2] - cx * sums[region, 0]
            moments[region, 1] = sums[region, 3] - cy * sums[region, 1]
            moments[region, 2] = sums[region, 4] - cx * sums[region, 1]
    return stats, centroids, moments


@njit(cache=True, nogil=True, error_model="numpy")
def _root(parent: np.ndarray, node: int) -> int:
    """The root of ``node``'s tree (paths halved on the way)."""
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


@njit(cache=True, nogil=True, error_model="numpy")
def _empty_stats(count: int, width: int) -> np.ndarray:
    """Stats rows (see :func:`_add_run`) before any run: the left end starts at the width."""
    stats = np.zeros((count, 5), np.int64)
    stats[:, 0] = width
    return stats


@njit(cache=True, nogil=True, error_model="numpy")
def _add_run(stats, sums, label, y, start, end) -> None:
    """Add the run of pixels start..end - 1 of row ``y`` to region ``label``: its stats row
    (left, top, right, bottom, area until finished) and coordinate sums (x, y, x*x, y*y,
    x*y). Rows must come in order: the first row a region gets is its top."""
    if stats[label, 4] == 0:
        stats[label, 1] = y
    stats[label, 0] = min(stats[label, 0], start)
    stats[label, 2] = max(stats[label, 2], end - 1)
    stats[label, 3] = y
    run = end - start
    run_x = (start + end - 1) * run // 2  # start + (start + 1) + ... + (end - 1)
    # The same sum of squares: (end - 1)end(2end - 1)/6 - (start - 1)start(2start - 1)/6.
    run_xx = ((end - 1) * end * (2 * end - 1) - (start - 1) * start * (2 * start - 1)) // 6
    stats[label, 4] += run
    sums[label, 0] += run_x
    sums[label, 1] += y * run
    sums[label, 2] += run_xx
    sums[label, 3] += y * y * run
    sums[label, 4] += y * run_x


@njit(cache=True, nogil=True, error_model="numpy")
def _grow_lattices(order, first, dst, disp, local, step_tol):
    """Breadth-first growth of lattices from the seeds in ``order`` (see _link_lattices).

    Returns the regions of all lattices of three or more (concatenated, each in the order
    reached), the end of each lattice in that array, and every region's lattice coords.
    """
    m = len(first) - 1
    coords = np.zeros((m, 2), np.int64)
    axes = np.zeros((m, 2, 2))
    group = np.full(m, -1, np.int64)
    queue = np.empty(m, np.int64)
    members = np.empty(m, np.int64)
    ends = np.empty(m + 1, np.int64)
    kept = 0
    lattices = 0
    for seed in order:
        if group[seed] >= 0 or first[seed + 1] - first[seed] < 2:
            continue
        a, b = _seed_axes(local[first[seed] : first[seed + 1]])
        if a < 0:
            continue
        group[seed] = lattices
        coords[seed] = 0
        for k in range(2):  # element by element: array assignment is slow to compile
            axes[seed, 0, k] = disp[first[seed] + a, k]
            axes[seed, 1, k] = disp[first[seed] + b, k]
        count = 0
        queue[0] = seed
        head, tail = 0, 1
        while head < tail:
            i = queue[head]
            head += 1
            members[kept + count] = i
            count += 1
            # Steps in units of the region's axes u, v: solve (u v) step = displacement.
            ux, uy, vx, vy = axes[i, 0, 0], axes[i, 0, 1], axes[i, 1, 0], axes[i, 1, 1]
            det = ux * vy - vx * uy
            for e in range(first[i], first[i + 1]):
                j = dst[e]
                step_u = (vy * disp[e, 0] - vx * disp[e, 1]) / det
                step_v = (ux * disp[e, 1] - uy * disp[e, 0]) / det
                round_u, round_v = np.rint(step_u), np.rint(step_v)
                if abs(round_u) + abs(round_v) != 1:
                    continue
                if max(abs(step_u - round_u), abs(step_v - round_v)) > step_tol:
                    continue
                if group[j] >= 0:
                    continue
                group[j] = lattices
                coords[j, 0] = coords[i, 0] + int(round_u)
                coords[j, 1] = coords[i, 1] + int(round_v)
                # Follow perspective: the new region's axes take the measured step.
                for k in range(2):
                    axes[j, 0, k] = disp[e, k] * round_u if round_u != 0 else axes[i, 0, k]
                    axes[j, 1, k] = disp[e, k] * round_v if round_u == 0 else axes[i, 1, k]
                queue[tail] = j
                tail += 1
        if count >= 3:
            kept += count
            ends[lattices] = kept
            lattices += 1
        else:
            for k in range(count):
                group[members[kept + k]] = -2
    return members[:kept], ends[:lattices], coords


@njit(cache=True, nogil=True, error_model="numpy")
def _seed_axes(local: np.ndarray) -> tuple[int, int]:
    """The two neighbours (rows of ``local``, displacements in the region's own frame) that
    give a seed its lattice axes: of the nearly perpendicular pairs, the most perpendicular
    and equally distant one; (-1, -1) when no pair is nearly perpendicular."""
    best, pair = np.inf, (-1, -1)
    for a in range(len(local)):
        length_a = np.sqrt(local[a, 0] ** 2 + local[a, 1] ** 2)
        for b in range(a + 1, len(local)):
            length_b = np.sqrt(local[b, 0] ** 2 + local[b, 1] ** 2)
            dot = local[a, 0] * local[b, 0] + local[a, 1] * local[b, 1]
            cos = abs(dot) / (length_a * length_b)
            if cos < 0.35 and cos + abs(length_a - length_b) < best:
                best, pair = cos + abs(length_a - length_b), (a, b)
    return pair


@njit(cache=True, nogil=True, error_model="numpy")
def _block_cells(inverse, centers, whiten, lo, hi):
    """:func:`_merged_cells` over all regions, given the image -> lattice map."""
    middle = _project(centers, inverse)
    index = np.array(
        [
            i
            for i in range(len(centers))
            if lo[0] - 0.5 < middle[i, 0] < hi[0] + 0.5 and lo[1] - 0.5 < middle[i, 1] < hi[1] + 0.5
        ],
        np.int64,
    )
    here, shape = _lattice_shapes(inverse, centers[index], whiten[index])
    cells = []
    middles = []
    for k in range(len(index)):
        # The shape's rows give the block's extent along each lattice axis (a sticker: 1 x 1).
        width = np.sqrt(shape[k, 0, 0] ** 2 + shape[k, 0, 1] ** 2)
        height = np.sqrt(shape[k, 1, 0] ** 2 + shape[k, 1, 1] ** 2)
        columns, rows = np.rint(width), np.rint(height)
        first_col = here[k, 0] - (columns - 1) / 2  # the block's first cell
        first_row = here[k, 1] - (rows - 1) / 2
        fits = (
            abs(width - columns) < 0.3
            and abs(height - rows) < 0.3
            and 1 <= columns <= 3
            and 1 <= rows <= 3
            and columns * rows >= 2
            and abs(first_col - np.rint(first_col)) < 0.25
            and abs(first_row - np.rint(first_row)) < 0.25
        )
        if fits:
            for dr in range(int(rows)):
                for dc in range(int(columns)):
                    cells.append((int(np.rint(first_col)) + dc, int(np.rint(first_row)) + dr))
                    middles.append((here[k, 0], here[k, 1]))
    out_cells = np.zeros((len(cells), 2), np.int64)
    out_middles = np.zeros((len(cells), 2))
    for k in range(len(cells)):
        out_cells[k, 0], out_cells[k, 1] = cells[k]
        out_middles[k, 0], out_middles[k, 1] = middles[k]
    return out_cells, out_middles


@njit(cache=True, nogil=True, error_model="numpy")
def _lattice_shapes(inverse: np.ndarray, centers: np.ndarray, whiten: np.ndarray):
    step = 0.5
    count = len(centers)
    moved = np.empty((3 * count, 2))
    for i in range(count):  # element by element: array assignment is slow to compile
        x, y = centers[i, 0], centers[i, 1]
        moved[i, 0], moved[i, 1] = x, y
        moved[count + i, 0], moved[count + i, 1] = x + step, y
        moved[2 * count + i, 0], moved[2 * count + i, 1] = x, y + step
    mapped = _project(moved, inverse)
    here = mapped[:count]
    shape = np.empty((count, 2, 2))
    for i in range(count):
        # Jacobian columns: the lattice displacement per image pixel along x and along y.
        j00 = (mapped[count + i, 0] - here[i, 0]) / step
        j10 = (mapped[count + i, 1] - here[i, 1]) / step
        j01 = (mapped[2 * count + i, 0] - here[i, 0]) / step
        j11 = (mapped[2 * count + i, 1] - here[i, 1]) / step
        a, b, c, d = whiten[i, 0, 0], whiten[i, 0, 1], whiten[i, 1, 0], whiten[i, 1, 1]
        det = a * d - b * c
        # Jacobian @ whiten^-1, with whiten^-1 = [[d, -b], [-c, a]] / det.
        shape[i, 0, 0] = (j00 * d - j01 * c) / det
        shape[i, 0, 1] = (j01 * a - j00 * b) / det
        shape[i, 1, 0] = (j10 * d - j11 * c) / det
        shape[i, 1, 1] = (j11 * a - j10 * b) / det
    return here, shape


@njit(cache=True, nogil=True, error_model="numpy")
def _elongation(shape: np.ndarray) -> np.ndarray:
    """Ratio of the larger to the smaller singular value of each 2x2 matrix."""
    ratio = np.empty(len(shape))
    for i in range(len(shape)):
        a, b, c, d = shape[i, 0, 0], shape[i, 0, 1], shape[i, 1, 0], shape[i, 1, 1]
        # Singular values of [[a, b], [c, d]]: q + r and |q - r| (closed form).
        q = np.hypot((a + d) / 2, (c - b) / 2)
        r = np.hypot((a - d) / 2, (c + b) / 2)
        ratio[i] = (q + r) / max(abs(q - r), 1e-9)
    return ratio


@njit(cache=True, nogil=True, error_model="numpy")
def _on_one_line(coords: np.ndarray) -> bool:
    """True when all the (integer) coords lie on one line, or are one point: exactly where
    their centred matrix has rank below two."""
    for b in range(1, len(coords)):
        dx, dy = coords[b, 0] - coords[0, 0], coords[b, 1] - coords[0, 1]
        if dx != 0 or dy != 0:
            for i in range(len(coords)):
                if (coords[i, 0] - coords[0, 0]) * dy - (coords[i, 1] - coords[0, 1]) * dx != 0:
                    return False
            return True
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def _on_one_line_but_one(coords: np.ndarray) -> bool:
    count = len(coords)
    if count < 4:
        return True
    # Such a line holds two of any three coords: try the lines through pairs of the first
    # three (integer coords, so the collinearity test is exact).
    for a, b in ((0, 1), (0, 2), (1, 2)):
        dx, dy = coords[b, 0] - coords[a, 0], coords[b, 1] - coords[a, 1]
        on_line = 0
        for i in range(count):
            if (coords[i, 0] - coords[a, 0]) * dy - (coords[i, 1] - coords[a, 1]) * dx == 0:
                on_line += 1
        if on_line >= count - 1:
            return True
    return False


@njit(cache=True, nogil=True, error_model="numpy")
def _nearest(points: np.ndarray, centers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distance to, and index of, the nearest of ``centers`` for each point (brute force:
    a handful of points against a few hundred centres)."""
    dist = np.empty(len(points))
    index = np.zeros(len(points), np.int64)
    for i in range(len(points)):
        best = np.inf
        for j in range(len(centers)):
            dx, dy = centers[j, 0] - points[i, 0], centers[j, 1] - points[i, 1]
            squared = dx * dx + dy * dy
            if squared < best:
                best, index[i] = squared, j
        dist[i] = np.sqrt(best)
    return dist, index


@njit(cache=True, nogil=True, error_model="numpy")
def _pitch_cell_areas(coords: np.ndarray, homography: np.ndarray) -> np.ndarray:
    return _quad_areas(_cell_quads(coords, homography))


@njit(cache=True, nogil=True, error_model="numpy")
def _cell_quads(coords: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The image corners (4 K, 2) of the pitch cell around each lattice coordinate, four
    by four, clockwise from the top left."""
    count = len(coords)
    corners = np.empty((4 * count, 2))
    for i in range(count):
        for k, (dx, dy) in enumerate(((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))):
            corners[4 * i + k, 0] = coords[i, 0] + dx
            corners[4 * i + k, 1] = coords[i, 1] + dy
    return _project(corners, homography)


@njit(cache=True, nogil=True, error_model="numpy")
def _quad_areas(quads: np.ndarray) -> np.ndarray:
    """The area of each quad of :func:`_cell_quads`' corners (shoelace), 1e-6 at least."""
    area = np.empty(len(quads) // 4)
    for i in range(len(area)):
        twice = 0.0
        for k in range(4):
            x0, y0 = quads[4 * i + k, 0], quads[4 * i + k, 1]
            x1, y1 = quads[4 * i + (k + 1) % 4, 0], quads[4 * i + (k + 1) % 4, 1]
            twice += x0 * y1 - x1 * y0
        area[i] = max(0.5 * abs(twice), 1e-6)
    return area


@njit(cache=True, nogil=True, error_model="numpy")
def _windows(coords, blocks, middles, lo, extent, sizes):
    """The N x N windows over a lattice where enough stickers were seen (see _best_window).

    For each N in ``sizes``, every window between flush with the lattice's low and its high
    end on each axis, by the origin's x, then its y. A window is kept when it covers
    nearly all the lattice's regions (``coords``; or a region in each of its N x N cells,
    with a few strays left out, two always; or, for N >= 3, in all but one,
    with one stray left out), when its cells with a sticker seen (the regions it covers,
    and the cells of merged blocks centred in it: ``blocks`` with their ``middles``) are at
    least three and 0.6 of its cells, and when every row and column has one (an empty one
    is the window hanging past the face, or past a keyboard). Returns each kept window's
    objective (regions covered, less half a region for each empty cell and two for each
    region left out), N, origin (K, 2) and mask of cells with a sticker seen (K, 7, 7), the
    mask's top-left N x N block in use.
    """
    total = len(coords)
    bound = 0
    for n in sizes:
        bound += (abs(extent[0] - n) + 1) * (abs(extent[1] - n) + 1)
    objectives = np.empty(bound)
    sizes_kept = np.empty(bound, np.int64)
    origins = np.empty((bound, 2), np.int64)
    supports = np.zeros((bound, 7, 7), np.bool_)
    kept = 0
    for n in sizes:
        x_ends = (lo[0], lo[0] + extent[0] - n)
        y_ends = (lo[1], lo[1] + extent[1] - n)
        for ox in range(min(x_ends), max(x_ends) + 1):
            for oy in range(min(y_ends), max(y_ends) + 1):
                support = supports[kept]
                covered = 0
                for i in range(total):
                    x, y = coords[i, 0] - ox, coords[i, 1] - oy
                    if 0 <= x < n and 0 <= y < n:
                        covered += 1
                        support[y, x] = True
                # Nearly all the lattice, or a full N x N of it with a few look-alike strays
                # (two objects beside a 3x3 are a sixth of its lattice; beside a 2x2, a third,
                # so a 2x2's are judged by their size, see grid._leaves_out_its_own), or all
                # but one cell (a finger over it) of an N >= 3 with one stray.
                full = (covered == n * n and (covered >= 0.85 * total or total - covered <= 2)) or (
                    covered + 1 == total and covered >= n * n - (n >= 3)
                )
                most = covered >= 0.9 * total or full
                if not (most and covered + len(blocks) >= 0.6 * n * n):
                    support[:] = False
                    continue
                for j in range(len(blocks)):
                    x, y = blocks[j, 0] - ox, blocks[j, 1] - oy
                    mx, my = middles[j, 0] - ox, middles[j, 1] - oy
                    if 0 <= x < n and 0 <= y < n and -0.5 < mx < n - 0.5 and -0.5 < my < n - 0.5:
                        support[y, x] = True
                count = 0
                rows_seen = 0
                cols_seen = 0
                for r in range(n):
                    row_count = 0
                    col_count = 0
                    for c in range(n):
                        row_count += support[r, c]
                        col_count += support[c, r]
                    count += row_count
                    rows_seen += row_count > 0
                    cols_seen += col_count > 0
                # A 2x2 may have one sticker unseen (under a finger): its three are judged
                # on their pixels later.
                if count < max(3, 0.6 * n * n) or rows_seen < n or cols_seen < n:
                    support[:] = False
                    continue
                objectives[kept] = covered - 0.5 * (n * n - covered) - 2.0 * (total - covered)
                sizes_kept[kept] = n
                origins[kept, 0], origins[kept, 1] = ox, oy
                kept += 1
    return objectives[:kept], sizes_kept[:kept], origins[:kept], supports[:kept]


@njit(cache=True, nogil=True, error_model="numpy")
def _suppressed(order: np.ndarray, centers: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """Indices kept by :func:`cubescan.scanner.grid._suppress`, in ``order``: each blocks the others
    within 0.4 of the smaller side of the two (brute force over a few hundred)."""
    count = len(order)
    blocked = np.zeros(count, np.bool_)
    kept = np.empty(count, np.int64)
    total = 0
    for index in order:
        if blocked[index]:
            continue
        kept[total] = index
        total += 1
        for j in range(count):
            dx = centers[j, 0] - centers[index, 0]
            dy = centers[j, 1] - centers[index, 1]
            if np.sqrt(dx * dx + dy * dy) <= 0.4 * min(sides[j], sides[index]):
                blocked[j] = True
    return kept[:total]


# The glare kernels use loops, not NumPy's reductions: numba spends a quarter of a second
# compiling each reduction (once per machine; the cache keeps the result).
@njit(cache=True, nogil=True, error_model="numpy")
def _glared_cells(pixels: np.ndarray, max_spread: float, min_chroma: float) -> np.ndarray:
    """Which cells (pixels (n, n, 16, 3) Lab) are one flat colour under a glare spot (see
    grid._glared): each cell's pixels are ordered by lightness (stably, as NumPy's argsort
    of 8-bit values is), then judged on their darker half and lightest quarter, or as
    washed out (:func:`_washed_cell`)."""
    rows, cols, count = pixels.shape[0], pixels.shape[1], pixels.shape[2]
    half, quarter = count // 2, count - count // 4
    glared = np.zeros((rows, cols), np.bool_)
    cell = np.empty((count, 3))
    for i in range(rows):
        for j in range(cols):
            order = _stable_order(pixels[i, j, :, 0])
            for k in range(count):
                for c in range(3):
                    cell[k, c] = pixels[i, j, order[k], c]
            darker_chroma = 0.0
            for k in range(half):
                darker_chroma += np.hypot(cell[k, 1] - 128.0, cell[k, 2] - 128.0)
            lightest_chroma = 0.0
            for k in range(quarter, count):
                lightest_chroma += np.hypot(cell[k, 1] - 128.0, cell[k, 2] - 128.0)
            lighter = _channel_mean(cell[quarter:], 0) - _channel_mean(cell[:half], 0)
            glared[i, j] = (
                _channel_spread(cell[:half]) < max_spread
                and lighter > max_spread
                and lightest_chroma / (count - quarter) < darker_chroma / half
            ) or _washed_cell(cell, max_spread, min_chroma)
    return glared


@njit(cache=True, nogil=True, error_model="numpy")
def _stable_order(values: np.ndarray) -> np.ndarray:
    """Indices that sort a few values, ties kept in their order (an insertion sort: numba's
    own stable argsort takes a second to compile)."""
    order = np.arange(len(values))
    for a in range(1, len(values)):
        index = order[a]
        b = a - 1
        while b >= 0 and values[order[b]] > values[index]:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = index
    return order


@njit(cache=True, nogil=True, error_model="numpy")
def _washed_cells(ordered: np.ndarray, max_spread: float, min_chroma: float) -> np.ndarray:
    """:func:`_washed_cell` of each cell (pixels (n, n, 16, 3) Lab, darkest first)."""
    washed = np.zeros(ordered.shape[:2], np.bool_)
    for i in range(ordered.shape[0]):
        for j in range(ordered.shape[1]):
            washed[i, j] = _washed_cell(ordered[i, j], max_spread, min_chroma)
    return washed


@njit(cache=True, nogil=True, error_model="numpy")
def _washed_cell(cell: np.ndarray, max_spread: float, min_chroma: float) -> bool:
    """Whether a cell's pixels (16, 3) Lab, darkest first, are a coloured sticker washed out
    by glare over much of its patch (see grid._washed): the darkest quarter is flat and
    coloured, every pixel keeps its hue, and the lightest is much lighter."""
    count = len(cell)
    base = cell[: count // 4]
    margin = max_spread / 2
    base_a = _channel_mean(base, 1) - 128.0
    base_b = _channel_mean(base, 2) - 128.0
    chroma = np.hypot(base_a, base_b)
    if not (_channel_spread(base) < margin and chroma > min_chroma):
        return False
    if cell[count - 1, 0] - _channel_mean(base, 0) <= max_spread:
        return False
    hue_a, hue_b = base_a / chroma, base_b / chroma
    for k in range(count):
        a, b = cell[k, 1] - 128.0, cell[k, 2] - 128.0
        along = a * hue_a + b * hue_b
        across = np.hypot(a - along * hue_a, b - along * hue_b)
        if not (across < margin and -margin < along < chroma + margin):
            return False
    return True


@njit(cache=True, nogil=True, error_model="numpy")
def _channel_spread(pixels: np.ndarray) -> float:
    """The largest range (max - min) of any channel over the pixels (K, 3)."""
    spread = 0.0
    for c in range(pixels.shape[1]):
        low = high = pixels[0, c]
        for k in range(1, len(pixels)):
            low, high = min(low, pixels[k, c]), max(high, pixels[k, c])
        spread = max(spread, high - low)
    return spread


@njit(cache=True, nogil=True, error_model="numpy")
def _channel_mean(pixels: np.ndarray, channel: int) -> float:
    """The mean of one channel over the pixels (K, 3)."""
    total = 0.0
    for k in range(len(pixels)):
        total += pixels[k, channel]
    return total / len(pixels)


@njit(cache=True, nogil=True, error_model="numpy")
def _doubled_angle_sums(gx: np.ndarray, gy: np.ndarray, judged: np.ndarray):
    """Sums over the judged pixels (mask (H, W)) and all channels of the gradients' doubled
    angles (gx + i gy)^2, as (sine, cosine) of those across the columns (cosine >= 0), then
    (sine, cosine) of all (see grid._edge_turns). Products are float32, sums float64."""
    two = np.float32(2.0)
    sine_columns = cosine_columns = sine_all = cosine_all = 0.0
    height, width, channels = gx.shape
    for y in range(height):
        for x in range(width):
            if not judged[y, x]:
                continue
            for c in range(channels):
                dx, dy = gx[y, x, c], gy[y, x, c]
                cosine, sine = dx * dx - dy * dy, two * dx * dy
                sine_all += sine
                cosine_all += cosine
                if cosine >= 0:
                    sine_columns += sine
                    cosine_columns += cosine
    return sine_columns, cosine_columns, sine_all, cosine_all


@njit(cache=True, nogil=True, error_model="numpy", boundscheck=False)
def _block_means(image: np.ndarray, factor: int, rounded: np.ndarray) -> np.ndarray:
    """The BGR image (H, W, 3) uint8 shrunk by a whole ``factor`` along both axes: each
    output pixel the mean of its ``factor`` x ``factor`` block, as ``rounded[block sum]``
    (see grid._shrunk). Rows of blocks are summed first, a whole image row at a time (the
    long, contiguous loop the compiler vectorises), then each block's columns, the three
    channels side by side."""
    height, width, _ = image.shape
    out_height, out_width = height // factor, width // factor
    rows = image.reshape(height, width * 3)
    out = np.empty((out_height, out_width * 3), np.uint8)
    column_sums = np.empty(width * 3, np.uint16)
    for out_y in range(out_height):
        first = rows[out_y * factor]
        for i in range(width * 3):
            column_sums[i] = first[i]
        for k in range(1, factor):
            row = rows[out_y * factor + k]
            for i in range(width * 3):
                column_sums[i] += row[i]
        for out_x in range(out_width):
            i = out_x * factor * 3
            blue = green = red = 0
            for _ in range(factor):
                blue += column_sums[i]
                green += column_sums[i + 1]
                red += column_sums[i + 2]
                i += 3
            out[out_y, out_x * 3] = rounded[blue]
            out[out_y, out_x * 3 + 1] = rounded[green]
            out[out_y, out_x * 3 + 2] = rounded[red]
    return out.reshape(out_height, out_width, 3)


@njit(cache=True, nogil=True, error_model="numpy")
def _least_squares_homography(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The homography (3x3, [2, 2] = 1) taking ``source`` to ``target`` ((K, 2), K >= 4)
    with the least squared reprojection error in the target, or all NaN when the points fix
    none: the normalised direct linear transform's solution, refined (:func:`_refined`).

    Solved by hand-written elimination (:func:`_solve`), not LAPACK: numba compiles a
    LAPACK call into each kernel, for seconds on first use."""
    count = len(source)
    nan = np.full((3, 3), np.nan)
    # Each point set centred and scaled to a mean distance of root two (Hartley), so that
    # the linear system weighs its rows alike. The source's centroid then sits at the
    # origin, which a face's homography maps to a finite point: its [2, 2] is not 0 and
    # may be fixed at 1, leaving a linear least-squares problem in the other eight.
    scales, shifts = np.zeros(2), np.zeros((2, 2))
    scales[0], shifts[0, 0], shifts[0, 1] = _normalisation(source)
    scales[1], shifts[1, 0], shifts[1, 1] = _normalisation(target)
    if scales[0] == 0.0 or scales[1] == 0.0:
        return nan
    normal, right, row = np.zeros((8, 8)), np.zeros(8), np.zeros(8)
    for i in range(count):
        x = scales[0] * (source[i, 0] - shifts[0, 0])
        y = scales[0] * (source[i, 1] - shifts[0, 1])
        for axis in range(2):
            mapped = scales[1] * (target[i, axis] - shifts[1, axis])
            row[:] = 0.0
            row[3 * axis], row[3 * axis + 1], row[3 * axis + 2] = x, y, 1.0
            row[6], row[7] = -mapped * x, -mapped * y
            _add_row(normal, right, row, mapped)
    h = _solve(normal, right)
    if not _all_finite(h):
        return nan
    # Back from the normalised frames: x' = s0 (x - m0) into it, u = u' / s1 + m1 out.
    entries = np.ones(9)  # the normalised homography, row by row
    for k in range(8):
        entries[k] = h[k]
    homography = np.empty((3, 3))
    for r in range(3):
        a, b, c = entries[3 * r], entries[3 * r + 1], entries[3 * r + 2]
        homography[r, 0], homography[r, 1] = a * scales[0], b * scales[0]
        homography[r, 2] = c - a * scales[0] * shifts[0, 0] - b * scales[0] * shifts[0, 1]
    for r in range(2):
        for c in range(3):
            homography[r, c] = homography[r, c] / scales[1] + shifts[1, r] * homography[2, c]
    if not _all_finite(homography.ravel()) or abs(homography[2, 2]) < 1e-12:
        return nan
    return _refined(homography / homography[2, 2], source, target)


@njit(cache=True, nogil=True, error_model="numpy")
def _normalisation(points: np.ndarray) -> tuple[float, float, float]:
    """The scale that gives ``points`` a mean distance of root two from their centroid, and
    the centroid (x, y); scale 0 when they all coincide."""
    count = len(points)
    mx = my = 0.0
    for i in range(count):
        mx += points[i, 0] / count
        my += points[i, 1] / count
    spread = 0.0
    for i in range(count):
        spread += np.sqrt((points[i, 0] - mx) ** 2 + (points[i, 1] - my) ** 2) / count
    return (np.sqrt(2.0) / spread if spread > 1e-12 else 0.0), mx, my


@njit(cache=True, nogil=True, error_model="numpy")
def _refined(homography: np.ndarray, source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Levenberg-Marquardt steps on the eight free entries of ``homography`` (its [2, 2]
    stays 1) against the squared reprojection error: ten at most, as OpenCV takes."""
    best = homography.copy()
    best_error = _reprojection_error(best, source, target)
    normal, gradient = _normal_equations(best, source, target)
    trace = 0.0
    for k in range(8):
        trace += normal[k, k]
    damping = 1e-3 * max(trace / 8, 1e-12)
    for _ in range(10):
        damped = normal.copy()
        for k in range(8):
            damped[k, k] += damping
        step = _solve(damped, gradient)  # the step is its negative
        if not _all_finite(step):
            break
        trial = best.copy()
        for k in range(8):
            trial[k // 3, k % 3] -= step[k]
        error = _reprojection_error(trial, source, target)
        if error < best_error:
            converged = best_error - error <= 1e-12 * best_error
            best, best_error = trial, error
            if converged:
                break
            normal, gradient = _normal_equations(best, source, target)
            damping /= 10.0
        else:
            damping *= 10.0
    return best


@njit(cache=True, nogil=True, error_model="numpy")
def _solve(matrix: np.ndarray, right: np.ndarray) -> np.ndarray:
    """x with matrix @ x = right (Gaussian elimination, partial pivoting); NaN when the
    matrix is singular."""
    size = len(right)
    a, x = matrix.copy(), right.copy()
    for col in range(size):
        pivot = col
        for r in range(col + 1, size):
            if abs(a[r, col]) > abs(a[pivot, col]):
                pivot = r
        if abs(a[pivot, col]) < 1e-300:
            return np.full(size, np.nan)
        if pivot != col:
            for c in range(size):
                a[col, c], a[pivot, c] = a[pivot, c], a[col, c]
            x[col], x[pivot] = x[pivot], x[col]
        for r in range(col + 1, size):
            factor = a[r, col] / a[col, col]
            for c in range(col, size):
                a[r, c] -= factor * a[col, c]
            x[r] -= factor * x[col]
    for col in range(size - 1, -1, -1):
        for c in range(col + 1, size):
            x[col] -= a[col, c] * x[c]
        x[col] /= a[col, col]
    return x


@njit(cache=True, nogil=True, error_model="numpy")
def _all_finite(values: np.ndarray) -> bool:
    """Whether no value is NaN or infinite: then, and only then (short of overflow, which
    is as bad), their sum is finite. Quicker to compile than ``np.isfinite(...).all()``."""
    return np.isfinite(values.sum())


@njit(cache=True, nogil=True, error_model="numpy")
def _inverse(m: np.ndarray) -> np.ndarray:
    """The inverse of a 3x3 matrix (its adjugate over its determinant)."""
    inverse = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            # Cofactor of m[c, r]: the minor without row c and column r, signed.
            r0, r1 = (c + 1) % 3, (c + 2) % 3
            c0, c1 = (r + 1) % 3, (r + 2) % 3
            inverse[r, c] = m[r0, c0] * m[r1, c1] - m[r0, c1] * m[r1, c0]
    determinant = m[0, 0] * inverse[0, 0] + m[0, 1] * inverse[1, 0] + m[0, 2] * inverse[2, 0]
    return inverse / determinant


@njit(cache=True, nogil=True, error_model="numpy")
def _normal_equations(homography: np.ndarray, source: np.ndarray, target: np.ndarray):
    """J^T J and J^T r of the reprojection residuals r over the eight free entries."""
    h = homography
    normal, gradient, row = np.zeros((8, 8)), np.zeros(8), np.zeros(8)
    for i in range(len(source)):
        x, y = source[i, 0], source[i, 1]
        w = h[2, 0] * x + h[2, 1] * y + 1.0
        if abs(w) < 1e-12:
            w = 1e-12
        for axis in range(2):
            mapped = (h[axis, 0] * x + h[axis, 1] * y + h[axis, 2]) / w
            row[:] = 0.0
            row[3 * axis], row[3 * axis + 1], row[3 * axis + 2] = x / w, y / w, 1.0 / w
            row[6], row[7] = -mapped * x / w, -mapped * y / w
            _add_row(normal, gradient, row, mapped - target[i, axis])
    return normal, gradient


@njit(cache=True, nogil=True, error_model="numpy")
def _add_row(normal: np.ndarray, right: np.ndarray, row: np.ndarray, value: float) -> None:
    """Add one row of a least-squares system (``row`` . x = ``value``) to its normal
    equations: ``normal`` += row row^T, ``right`` += row value."""
    for a in range(len(row)):
        right[a] += row[a] * value
        for b in range(len(row)):
            normal[a, b] += row[a] * row[b]


@njit(cache=True, nogil=True, error_model="numpy")
def _reprojection_error(homography: np.ndarray, source: np.ndarray, target: np.ndarray) -> float:
    mapped = _project(source, homography)
    error = 0.0
    for i in range(len(source)):
        error += (mapped[i, 0] - target[i, 0]) ** 2 + (mapped[i, 1] - target[i, 1]) ** 2
    return error


@njit(cache=True, nogil=True, error_model="numpy")
def _sticker_matches(
    lattice_h: np.ndarray,
    coords: np.ndarray,
    centers: np.ndarray,
    whiten: np.ndarray,
    areas: np.ndarray,
    reach: float,
    max_aspect: float,
    max_area_ratio: float,
) -> tuple[np.ndarray, np.ndarray]:
    """For each lattice cell (``coords``): whether a region matches it (nearest its middle
    within ``reach`` pitches, square in the lattice within ``max_aspect``, its share of the
    cell's area within ``max_area_ratio`` of the matches' median share, and no earlier cell
    matched to it), and its nearest region."""
    count = len(coords)
    dist, nearest = _nearest(_project(coords, lattice_h), centers)
    cell_areas = _pitch_cell_areas(coords, lattice_h)
    # (Gathered and masked in loops: numba takes seconds to compile fancy indexing.)
    near_centers, near_whiten = np.empty((count, 2)), np.empty((count, 2, 2))
    for i in range(count):
        j = nearest[i]
        near_centers[i, 0], near_centers[i, 1] = centers[j, 0], centers[j, 1]
        near_whiten[i, 0, 0], near_whiten[i, 0, 1] = whiten[j, 0, 0], whiten[j, 0, 1]
        near_whiten[i, 1, 0], near_whiten[i, 1, 1] = whiten[j, 1, 0], whiten[j, 1, 1]
    _, shape = _lattice_shapes(_inverse(lattice_h), near_centers, near_whiten)
    aspect = _elongation(shape)
    seen = np.zeros(count, np.bool_)
    share, shares = np.empty(count), np.empty(count)
    seen_count = 0
    for i in range(count):
        share[i] = areas[nearest[i]] / cell_areas[i]
        seen[i] = dist[i] < reach * np.sqrt(cell_areas[i]) and aspect[i] < max_aspect
        if seen[i]:
            shares[seen_count] = share[i]
            seen_count += 1
    shares = shares[:seen_count]
    _sort_in_place(shares)
    typical = _sorted_median(shares) if seen_count else 0.0
    matched = np.zeros(count, np.bool_)
    taken = np.zeros(len(centers), np.bool_)
    for i in range(count):
        sized = typical / max_area_ratio < share[i] < typical * max_area_ratio
        if seen[i] and sized and not taken[nearest[i]]:
            matched[i], taken[nearest[i]] = True, True
    return matched, nearest


@njit(cache=True, nogil=True, error_model="numpy")
def _region_shapes(variances: np.ndarray, areas: np.ndarray, sides: np.ndarray):
    """Each region's compactness (its area over 12 root-determinants of its covariance: 1
    for a filled square), elongation (the root of its covariance's eigenvalue ratio) and
    whitening (see grid._whitening), from its variances (K, 3: xx, yy, xy about its
    centroid), area and sticker side."""
    count = len(areas)
    compact, elongation = np.empty(count), np.empty(count)
    whiten = np.empty((count, 2, 2))
    for i in range(count):
        a, c, b = variances[i, 0], variances[i, 1], variances[i, 2]
        det = max(a * c - b * b, 1e-9)
        compact[i] = areas[i] / (12.0 * np.sqrt(det))
        half_trace = (a + c) / 2
        disc = np.sqrt(max(half_trace * half_trace - det, 0.0))
        elongation[i] = np.sqrt((half_trace + disc) / max(half_trace - disc, 1e-9))
        # cov^(-1/2) = adj(cov + s I) / (s t), s = sqrt(det cov), t = sqrt(trace + 2 s).
        s = np.sqrt(a * c - b * b)
        t = np.sqrt(a + c + 2 * s)
        scale = np.sqrt(areas[i] / 12.0) / (sides[i] * s * t)  # a unit square's variance: 1/12
        whiten[i, 0, 0], whiten[i, 0, 1] = (c + s) * scale, -b * scale
        whiten[i, 1, 0], whiten[i, 1, 1] = -b * scale, (a + s) * scale
    return compact, elongation, whiten


@njit(cache=True, nogil=True, error_model="numpy")
def _inner_patch_statistics(patch: np.ndarray, n: int, cell_px: int):
    """Of each cell of a rectified n x n face (``patch``: (n * cell_px, n * cell_px, 3)
    8-bit), the pixels of its inner patch (all but a border of two pixels), (n, n, K, 3);
    their median per channel (n, n, 3) float32; and their spread, the largest over the
    channels of the interquartile range (quartiles interpolated linearly between ranks, as
    ``np.percentile`` does), (n, n)."""
    side = cell_px - 4
    count = side * side
    inner = np.empty((n, n, count, 3), np.uint8)
    median = np.empty((n, n, 3), np.float32)
    spread = np.zeros((n, n))
    ordered = np.empty(count, np.float64)
    last = count - 1
    for row in range(n):
        for col in range(n):
            for k in range(count):
                y, x = row * cell_px + 2 + k // side, col * cell_px + 2 + k % side
                for c in range(3):
                    inner[row, col, k, c] = patch[y, x, c]
            for c in range(3):
                for k in range(count):
                    ordered[k] = inner[row, col, k, c]
                _sort_in_place(ordered)
                median[row, col, c] = _sorted_median(ordered)
                q25 = _rank(ordered, last * 0.25)
                q75 = _rank(ordered, last * 0.75)
                spread[row, col] = max(spread[row, col], q75 - q25)
    return inner, median, spread


@njit(cache=True, nogil=True, error_model="numpy")
def _rank(ordered: np.ndarray, place: float) -> float:
    """The value at a fractional rank of sorted values, linearly interpolated."""
    below = int(np.floor(place))
    above = min(below + 1, len(ordered) - 1)
    return _interpolated(ordered[below], ordered[above], place - below)


@njit(cache=True, nogil=True, error_model="numpy")
def _interpolated(lower: float, upper: float, weight: float) -> float:
    """``weight`` of the way from ``lower`` to ``upper``, from the nearer end, as NumPy's
    percentiles interpolate (so the result is theirs to the last bit)."""
    if weight >= 0.5:
        return upper - (upper - lower) * (1 - weight)
    return lower + (upper - lower) * weight


@njit(cache=True, nogil=True, error_model="numpy")
def _level_percentiles(image: np.ndarray, step: int, percents: np.ndarray) -> np.ndarray:
    """``np.percentile`` (linear interpolation between the neighbouring ranks, from the
    nearer one as NumPy interpolates) of an 8-bit image's every ``step``-th pixel along
    both axes, read off the histogram of its levels."""
    counts = np.zeros(256, np.int64)
    for y in range(0, image.shape[0], step):
        for x in range(0, image.shape[1], step):
            counts[image[y, x]] += 1
    cumulative = np.cumsum(counts)
    last = cumulative[-1] - 1
    out = np.empty(len(percents))
    for i in range(len(percents)):
        place = last * (percents[i] / 100)
        below = int(np.floor(place))
        above = min(below + 1, last)
        lower = float(np.searchsorted(cumulative, below, side="right"))
        upper = float(np.searchsorted(cumulative, above, side="right"))
        out[i] = _interpolated(lower, upper, place - below)
    return out


@njit(cache=True, nogil=True, error_model="numpy")
def _ring_squares(
    ring: np.ndarray,
    n: int,
    homography: np.ndarray,
    centers: np.ndarray,
    whiten: np.ndarray,
    box_fill: np.ndarray,
    max_aspect: float,
    max_squash: float,
    max_fill_difference: float,
) -> np.ndarray:
    """For each cell of the rings around an n x n window (``ring``, lattice coords) and the
    region nearest it (``centers``, ``whiten``, ``box_fill``: one per cell): whether that
    region is a square of the lattice there (see grid._lattice_continues). Its shape in
    lattice units is square within ``max_aspect``; not squashed across the window's side
    (narrower across it than along it by ``max_squash``), as the next face of a cube is where
    it bends away; and it fills its bounding box as the lattice's cell there fills its own
    (within ``max_fill_difference``), as tiles and keys lined up with the lattice do."""
    _, shape = _lattice_shapes(_inverse(homography), centers, whiten)
    square = _elongation(shape) < max_aspect
    quads = _cell_quads(ring, homography)
    areas = _quad_areas(quads)
    for i in range(len(ring)):
        along_x = np.sqrt(shape[i, 0, 0] ** 2 + shape[i, 0, 1] ** 2)
        along_y = np.sqrt(shape[i, 1, 0] ** 2 + shape[i, 1, 1] ** 2)
        across_rows = ring[i, 1] < 0 or ring[i, 1] >= n
        across_cols = ring[i, 0] < 0 or ring[i, 0] >= n
        if across_rows and not across_cols and along_y * max_squash < along_x:
            square[i] = False
        if across_cols and not across_rows and along_x * max_squash < along_y:
            square[i] = False
        low_x = high_x = quads[4 * i, 0]
        low_y = high_y = quads[4 * i, 1]
        for k in range(4 * i + 1, 4 * i + 4):
            low_x, high_x = min(low_x, quads[k, 0]), max(high_x, quads[k, 0])
            low_y, high_y = min(low_y, quads[k, 1]), max(high_y, quads[k, 1])
        box = (high_x - low_x) * (high_y - low_y)
        if not abs(box_fill[i] - areas[i] / max(box, 1e-9)) < max_fill_difference:
            square[i] = False
    return square


@njit(cache=True, nogil=True, error_model="numpy")
def _sort_in_place(values: np.ndarray) -> None:
    """Sort a few values (insertion sort: quick for a few dozen, and quick to compile,
    unlike ``np.sort``)."""
    for i in range(1, len(values)):
        value, j = values[i], i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


@njit(cache=True, nogil=True, error_model="numpy")
def _sorted_median(ordered: np.ndarray) -> float:
    """The median of sorted values (the mean of the middle two of an even count)."""
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
