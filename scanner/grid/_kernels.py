"""Compiled inner loops several stages of :mod:`cubescan.scanner.grid` share
(numba).

Kept apart from the detector's logic so that the stages read as the algorithm, and so that
numba's on-disk cache, which is keyed to the source file, survives edits of the stages.
Each function is a plain loop over NumPy arrays; its callers document what it is for.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _pitch_cell_areas(coords: np.ndarray, homography: np.ndarray) -> np.ndarray:
    return _quad_areas(_cell_quads(coords, homography))


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _all_finite(values: np.ndarray) -> bool:
    """Whether no value is NaN or infinite: then, and only then (short of overflow, which
    is as bad), their sum is finite. Quicker to compile than ``np.isfinite(...).all()``."""
    return np.isfinite(values.sum())


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
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


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _add_row(normal: np.ndarray, right: np.ndarray, row: np.ndarray, value: float) -> None:
    """Add one row of a least-squares system (``row`` . x = ``value``) to its normal
    equations: ``normal`` += row row^T, ``right`` += row value."""
    for a in range(len(row)):
        right[a] += row[a] * value
        for b in range(len(row)):
            normal[a, b] += row[a] * row[b]


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _reprojection_error(homography: np.ndarray, source: np.ndarray, target: np.ndarray) -> float:
    mapped = _project(source, homography)
    error = 0.0
    for i in range(len(source)):
        error += (mapped[i, 0] - target[i, 0]) ** 2 + (mapped[i, 1] - target[i, 1]) ** 2
    return error


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _interpolated(lower: float, upper: float, weight: float) -> float:
    """``weight`` of the way from ``lower`` to ``upper``, from the nearer end, as NumPy's
    percentiles interpolate (so the result is theirs to the last bit)."""
    if weight >= 0.5:
        return upper - (upper - lower) * (1 - weight)
    return lower + (upper - lower) * weight


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _sort_in_place(values: np.ndarray) -> None:
    """Sort a few values (insertion sort: quick for a few dozen, and quick to compile,
    unlike ``np.sort``)."""
    for i in range(1, len(values)):
        value, j = values[i], i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


@njit(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)
def _sorted_median(ordered: np.ndarray) -> float:
    """The median of sorted values (the mean of the middle two of an even count)."""
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2
