"""Accuracy of whole-cube colour classification on modelled camera readings.

Usage: python benchmarks/eval_colors.py [--cubes 1000] [--seed 0] [--sizes 3] [--glare 0.02]
       python benchmarks/eval_colors.py --kelvin 2500 3000 3500 4500 6500 [--sizes 2 3 4 5 6 7]
       python benchmarks/eval_colors.py --single-face [--cubes 300] [--lights warm ...]

For each light (warm 2700 K, cool 6500 K, dim, mixed per-face 2700..6500 K, and lamp: a warm
desk lamp with flare and low saturation, white reading pale yellow; see cubescan/synth/colors.py
for the noise model: uncorrected colour casts, exposure, per-face shading, per-brand and
per-sticker reflectance jitter, sensor noise growing with gain, occasional glare, 8-bit
quantisation), renders ``--cubes`` random solvable states and
reports the share of cubes whose facelet string is exactly right and the sticker error
rate, without a profile and with a profile learned from a solved cube of the same brand
scanned under the same light (a fresh noise draw), each named sticker by sticker (as before
issue 52) and then as the pieces demand (``calibration.piece_naming``, as ``cubescan check``
names a placed cube): the before and after of one run.

With ``--kelvin``, the lights are the lamp (``cubescan.synth.colors.lamp_light``) at each of
the given colour temperatures in turn: a colour-temperature sweep.

With ``--single-face``, every face of every rendered cube is named on its own, as the webcam
preview and ``cubescan read`` do (``calibration.naming.name_face_colors``, no profile), and the
share of stickers and of whole faces named right is printed per light, with the faces that
hold no white sticker (whose white point the face's colours alone must carry) counted apart.
"""

from __future__ import annotations

import argparse

import numpy as np
from record import add_record_argument, start_recording

from cubescan.calibration.face_naming import name_face_colors
from cubescan.calibration.naming import classify
from cubescan.calibration.palette import PALETTE_NAMES, Classification
from cubescan.calibration.piece_naming import name_by_pieces, needs_piece_naming
from cubescan.calibration.profile import learn_profile
from cubescan.solver import solved_facelets
from cubescan.synth.colors import (
    LIGHTS,
    STANDARD_FACE_COLOR,
    draw_brand,
    draw_light,
    lamp_light,
    random_cube,
    render_stickers,
)

#: Ways of naming measured side by side: the stickers alone (as before issue 52), and then
#: named as the pieces demand (calibration.piece_naming), without and with a profile.
MODES = ("no profile", "no profile, pieces", "profile", "profile, pieces")


def by_pieces(named: Classification, lab: np.ndarray) -> Classification:
    """The naming as cubescan check makes it once the pieces are known."""
    return name_by_pieces(named, lab) if needs_piece_naming(named) else named


def single_face(args: argparse.Namespace) -> None:
    """Name each face of each rendered cube alone; print sticker and face accuracy per light."""
    # Sticker colour index (STICKER_SRGB order) -> name, as name_face_colors reports it.
    names = np.array(PALETTE_NAMES)
    for size in args.sizes:
        for light_name in args.lights:
            rng = np.random.default_rng([args.seed, size, LIGHTS.index(light_name), 1])
            faces = faces_no_white = right_no_white = 0
            wrong_stickers = 0
            for _ in range(args.cubes):
                truth = random_cube(size, rng)
                color = np.array([STANDARD_FACE_COLOR[f] for f in truth])
                lab = render_stickers(color, draw_light(light_name, rng), rng, args.glare)
                for face_color, face_lab in zip(
                    color.reshape(6, -1), lab.reshape(6, -1, 3), strict=True
                ):
                    wrong = int(
                        np.sum(np.array(name_face_colors(face_lab).names) != names[face_color])
                    )
                    wrong_stickers += wrong
                    faces += wrong == 0
                    if not (face_color == 0).any():
                        faces_no_white += 1
                        right_no_white += wrong == 0
            total = args.cubes * 6 * size * size
            print(
                f"{size}x{size} {light_name:6s} single face: "
                f"{100 * (total - wrong_stickers) / total:6.2f}% stickers right, "
                f"{100 * faces / (6 * args.cubes):6.2f}% faces all right "
                f"(faces without white: {100 * right_no_white / max(faces_no_white, 1):6.2f}% "
                f"of {faces_no_white}; {args.cubes} cubes, glare rate {args.glare})"
            )


def main() -> None:
    """Run the evaluation and print one line per light and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cubes", type=int, default=None, help="per light (1000; 300 single)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--glare", type=float, default=0.02)
    parser.add_argument("--sizes", type=int, nargs="+", default=[3])
    parser.add_argument("--lights", nargs="+", choices=LIGHTS, default=list(LIGHTS))
    parser.add_argument(
        "--single-face", action="store_true", help="name each face alone (no profile)"
    )
    parser.add_argument(
        "--kelvin",
        type=float,
        nargs="+",
        default=None,
        help="sweep the lamp over these colour temperatures instead of --lights",
    )
    add_record_argument(parser)
    args = parser.parse_args()
    start_recording(args.record)
    if args.single_face:
        args.cubes = args.cubes or 300
        single_face(args)
        return
    args.cubes = args.cubes or 1000
    conditions = (
        [(f"{kelvin:.0f}K", 100 + index, kelvin) for index, kelvin in enumerate(args.kelvin)]
        if args.kelvin
        else [(name, LIGHTS.index(name), None) for name in args.lights]
    )
    for size in args.sizes:
        for light_name, stream, kelvin in conditions:
            rng = np.random.default_rng([args.seed, size, stream])
            exact = dict.fromkeys(MODES, 0)
            wrong = dict.fromkeys(MODES, 0)
            for _ in range(args.cubes):
                truth = random_cube(size, rng)
                color = np.array([STANDARD_FACE_COLOR[f] for f in truth])
                light = lamp_light(kelvin, rng) if kelvin else draw_light(light_name, rng)
                brand = draw_brand(rng)
                lab = render_stickers(color, light, rng, args.glare, brand)
                solved = solved_facelets(size)
                calibration = render_stickers(
                    np.array([STANDARD_FACE_COLOR[f] for f in solved]), light, rng, 0.0, brand
                )
                profile = learn_profile("eval", calibration, solved)
                stickers = classify(lab)
                with_profile = classify(lab, profile=profile)
                for mode, result in (
                    ("no profile", stickers),
                    ("no profile, pieces", by_pieces(stickers, lab)),
                    ("profile", with_profile),
                    ("profile, pieces", by_pieces(with_profile, lab)),
                ):
                    exact[mode] += result.facelets == truth
                    wrong[mode] += sum(a != b for a, b in zip(result.facelets, truth, strict=True))
            for mode in exact:
                print(
                    f"{size}x{size} {light_name:6s} {mode:18s}: "
                    f"{100 * exact[mode] / args.cubes:6.2f}% cubes exact, "
                    f"{100 * wrong[mode] / (args.cubes * 6 * size * size):.3f}% stickers wrong "
                    f"({args.cubes} cubes, glare rate {args.glare})",
                    flush=True,
                )


if __name__ == "__main__":
    main()
