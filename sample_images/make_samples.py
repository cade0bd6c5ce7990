"""Regenerate the demo photos in this folder with the project's own renderer (seeded).

* ``face_NxN_<style>.jpg`` - single-face photos of 2x2 to 5x5 cubes, stickered and stickerless,
  several palettes, lights and tilts (for ``cubescan read``).
* ``cube_3x3/`` - one scrambled 3x3 cube photographed face by face: ``U.png R.png F.png D.png
  L.png B.png``, each face upright as in the net (U with B at its top, D with F at its top, the
  side faces with U at their top), and ``truth.json`` with its facelet string and colours
  (for ``cubescan check``).

Run from the repository root: ``python sample_images/make_samples.py``
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from cubescan.synth.scenes import render_scene
from cubescan.synth.specs import FACE_ORDER, STANDARD_SCHEME, face_pose, random_scene_spec, scramble

HERE = Path(__file__).resolve().parent

SINGLE_FACES = [
    # (size, style, palette, light, resolution)
    (2, "stickerless", "bright", "neutral", (640, 480)),
    (3, "stickered", "classic", "warm", (1280, 720)),
    (3, "stickerless", "matte", "cool", (640, 480)),
    (4, "stickered", "classic", "neutral", (800, 600)),
    (5, "stickered", "pastel", "dim", (1280, 720)),
    (5, "stickerless", "bright", "neutral", (640, 480)),
]


def single_faces(rng: np.random.Generator) -> None:
    for size, style, palette, light, resolution in SINGLE_FACES:
        spec = random_scene_spec(
            rng, size, resolution=resolution, hard=False, scale_range=(0.4, 0.7), max_tilt_deg=25
        )
        spec = replace(spec, style=style, palette=palette, light=light)
        image, _ = render_scene(spec)
        path = HERE / f"face_{size}x{size}_{style}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 88])
        print("wrote", path.name)


def cube_set(rng: np.random.Generator) -> None:
    folder = HERE / "cube_3x3"
    folder.mkdir(exist_ok=True)
    facelets, moves = scramble(rng, 3)
    colors = "".join(STANDARD_SCHEME[f] for f in facelets)
    base = random_scene_spec(rng, 3, resolution=(512, 384), hard=False)
    base = replace(base, colors=colors, style="stickered", palette="classic", noise=1.5)
    for face in FACE_ORDER:
        rotation = face_pose(face, rng.uniform(5, 20), rng.uniform(0, 360), rng.uniform(-12, 12))
        center = (float(rng.uniform(-0.8, 0.8)), float(rng.uniform(-0.6, 0.6)), 11.5)
        spec = replace(
            base,
            rotation=tuple(tuple(float(x) for x in row) for row in rotation),
            center=center,
            focal=560.0,
        )
        image, truth = render_scene(spec)
        assert truth.front_face == face
        cv2.imwrite(str(folder / f"{face}.png"), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    truth_json = {
        "size": 3,
        "facelets": facelets,
        "colors": colors,
        "scheme": STANDARD_SCHEME,
        "scramble": moves,
        "notes": "Rendered by sample_images/make_samples.py; faces upright as in the net.",
    }
    (folder / "truth.json").write_text(json.dumps(truth_json, indent=2) + "\n", encoding="utf-8")
    print("wrote", folder.name, facelets)


def main() -> None:
    rng = np.random.default_rng(20240601)
    single_faces(rng)
    cube_set(rng)


if __name__ == "__main__":
    main()
