"""Find a cube face's N x N sticker grid in a frame, at any size, angle and tilt.

1. Regions (the main cue): at a working scale, the regions enclosed by lightness and
   chroma edges. Each region's second moments give it its own affine frame, so a
   sticker seen at a tilt is a unit square in its frame; no sticker size is fixed and no
   gaps are needed (the seams of a stickerless cube are edges too).
2. Lattices: regions one pitch apart in their own frames, of similar area, link into
   integer lattice coordinates; a homography from lattice to image is fitted (RANSAC;
   an affine fit when the points cannot fix a perspective). Regions at the cells the fit
   predicts are added ring by ring, stepping over same-colour stickers merged into one
   block. A lattice bent along one of its lines is two faces seen across their edge and
   is split at the fold.
3. The cube's own consistency picks an N x N window (2 <= N <= 7): a sticker seen in
   every row and column (not only from two objects beside a smaller face), stickers
   square in lattice units with their sides along its lines, no plastic-grey cells (nor,
   in a grid of one colour, holes that show the body between its keys), flat cells, and a
   grid that does *not* continue past the window's border (tiles, keyboards and boards
   do; the next face of the cube, squashed across the border, does not count). Of two
   faces of one cube, the one seen flatter is shown.
4. Scales: the working scale first, then a finer one for small faces, then a coarse
   one for large blurred faces; then the crossings of a stickerless face seen close
   (the dark gaps where four pieces' rounded corners meet, which lie on a lattice even
   where same-coloured pieces merge into blocks); then the second cue, sticker quads
   from several binarisations fitted to a lattice by RANSAC. When all of these find
   nothing, the scales are searched again, first with a small region's slack in squareness,
   then with fainter edges (for a dark face's shallow seams), then with fainter edges on
   each scale blurred further (for a dim frame's noise); a face found so must show a
   sticker in nearly every cell and seams between them. A live frame taken while the view
   moves gets the region cue only (a face being turned is not read). A thorough search
   (offline photos) tries more scales, then cuts rows of merged same-colour stickers into
   their stickers. A grid with fewer than a quarter of its cells flat is refused, and so is
   one whose stickers the frame's edge cuts into other than at its corner stickers (and
   their neighbours), a board pattern (two colours alternating with no seams, nor the
   plastic showing where four cells' corners meet), or a grid
   whose colours repeat in the flat cells past three of its sides (tiles; a cell the frame's
   edge cuts is judged by what shows of it), or cell for cell past one side whose border
   holds two or more colours (stripes).
5. Rows are ordered from the face's top as seen in the image (the grid is turned by
   the quarter turn that keeps "up" within 45 degrees of the image's up). In a video,
   the previous face is first followed to the stickers where its grid predicts them, then
   a crop around it searched (tracking).

The modules, in pipeline order (each numba kernel sits beside its stage in
``_<stage>_kernels.py``; kernels several stages share are in ``_kernels.py``):

- :mod:`~cubescan.scanner.grid.params`: every threshold of the detector, documented.
- :mod:`~cubescan.scanner.grid.geometry` and :mod:`~cubescan.scanner.grid.face`: what all
  stages share: homographies between lattice and image, cell and frame geometry, and
  :class:`FaceDetection`, the result.
- :mod:`~cubescan.scanner.grid.regions`: step 1, the working image and its regions.
- :mod:`~cubescan.scanner.grid.lattice`: step 2, linking regions into lattices and fitting
  them (split at a fold).
- :mod:`~cubescan.scanner.grid.windows`: step 3, scoring a lattice's N x N windows by the
  tests of :mod:`~cubescan.scanner.grid.cells` (what a cell shows: colour statistics,
  glare, seams), :mod:`~cubescan.scanner.grid.plastic` (the cube's body, keys with gaps),
  :mod:`~cubescan.scanner.grid.framing` (the face and the frame's edge) and
  :mod:`~cubescan.scanner.grid.continuation` (a grid going on past the window: tiles).
- :mod:`~cubescan.scanner.grid.search`: step 4, the search over scales, with the crossings
  cue of a stickerless face (:mod:`~cubescan.scanner.grid.crossings`) and the second cue,
  sticker quads (:mod:`~cubescan.scanner.grid.quads`); a grid found must pass the last
  "not a face" tests (:mod:`~cubescan.scanner.grid.rejection`).
- :mod:`~cubescan.scanner.grid.tracking`: step 5, following a face from the last frame.
- :mod:`~cubescan.scanner.grid.detection`: :func:`detect_grid`, the cues in turn.

Examples
--------
>>> import numpy as np
>>> from cubescan.synth.scenes import square_stickers_frame
>>> frame = square_stickers_frame()
>>> detection = detect_grid(frame)
>>> detection.size, np.round(detection.centers[0, 0]).tolist()
(3, [117.0, 77.0])
"""

from __future__ import annotations

from cubescan.scanner.grid.detection import as_bgr, detect_grid
from cubescan.scanner.grid.face import FaceDetection
from cubescan.scanner.grid.multi import (
    CubeCorner,
    FaceLink,
    FacesInView,
    detect_faces,
    place_third_face,
)
from cubescan.scanner.grid.params import WORK_SIDE

__all__ = [
    "WORK_SIDE",
    "CubeCorner",
    "FaceDetection",
    "FaceLink",
    "FacesInView",
    "as_bgr",
    "detect_faces",
    "detect_grid",
    "place_third_face",
]
